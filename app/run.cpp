// `gpurun run FILE …` (also the default command): run one kernel and report.
#include <iostream>

#include <fmt/format.h>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/process_clock.hpp"
#include "output/junit.hpp"
#include "output/printer.hpp"
#include "pipeline/collect.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/language.hpp"
#include "pipeline/prepare.hpp"
#include "pipeline/target.hpp"

namespace gpurun {

namespace {

// Each --expect is a test case; without any, the launch itself is the one case.
std::string run_junit(const RunOutcome& o) {
  std::vector<JunitCase> cases;
  const double seconds = o.timings.kernel_ms / 1000;
  for (const CheckReport& c : o.checks) {
    JunitCase t{c.name, o.kernel, seconds, std::nullopt, std::nullopt, std::nullopt};
    if (!c.passed)
      t.failure = !c.message.empty()
                      ? c.message
                      : fmt::format("{} of {} elements differ (max abs error {}, max rel error {})",
                                    c.mismatches, c.compared, c.max_abs_error, c.max_rel_error);
    cases.push_back(std::move(t));
  }
  if (cases.empty())
    cases.push_back({"launch", o.kernel, seconds, std::nullopt, std::nullopt, std::nullopt});
  return junit_xml("gpurun run " + o.kernel, cases);
}

} // namespace

void add_run_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("run", "Run one kernel (the default command: gpurun FILE …)");
  auto options = std::make_shared<RunOptions>();
  add_run_options(*cmd, *options);

  cmd->callback([cmd, options, &env] {
    if (options->json)
      env.device_output.emplace(); // in the document, also in an error document
    RunRequest request = make_run_request(*cmd, *options);
    trace("request built");
    const double select_start = ms_since_process_start();
    const Target target = select_target(
        env.registry, {request.backend, request.device, detect_language(request.source)});
    const double select_ms = ms_since_process_start() - select_start;
    trace("backend selected");
    DeviceOutputSink device_output;
    if (request.json) {
      // stdout carries the JSON document alone: device printf goes into it.
      device_output = [&text = *env.device_output](std::string_view part) { text.append(part); };
    }

    const auto printer = make_printer(request.json ? OutputFormat::json : OutputFormat::human);
    PreparedRun run = prepare(request, target, device_output);
    if (!request.quiet)
      printer->print_launch(run.outcome);
    execute(run, request.timeout_s);
    collect(run, request);
    execute_timed(run, request.repeat - 1, request.timeout_s);
    run.outcome.timings.init_ms = select_ms;
    run.outcome.timings.total_ms = ms_since_process_start();
    run.outcome.device_output = env.device_output;

    printer->print_run(run.outcome, RunView{request.print, request.quiet});
    if (!options->junit_file.empty())
      write_file_atomic(options->junit_file, run_junit(run.outcome));
    for (const std::string& warning : run.outcome.warnings)
      std::cerr << "gpurun: warning: " << warning << '\n';
    trace("reported");
    // The driver releases a process's contexts when it exits; destroying ours first only delays
    // the exit (docs/ARCHITECTURE.md, Decisions). Except under --leak-check: a leak checker
    // watching the driver (compute-sanitizer --leak-check full) reports when the context is
    // destroyed, so it is torn down first (docs/sanitizers.md).
    const int code = run.outcome.status == "ok" ? 0 : static_cast<int>(ExitCode::check_failed);
    if (request.leak_check) {
      PreparedRun done = std::move(run);
    }
    exit_without_teardown(code);
  });
}

} // namespace gpurun
