// `gpurun run FILE …` (also the default command): run one kernel and report.
#include <iostream>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "backends/registry.hpp"
#include "core/error.hpp"
#include "core/error_report.hpp"
#include "core/process_clock.hpp"
#include "core/report.hpp"
#include "core/run.hpp"

namespace gpurun {

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
    Backend& backend = env.registry.select(request.backend);
    RunTarget target{backend.name(), request.device, &env.registry.device(backend, request.device)};
    const double select_ms = ms_since_process_start() - select_start;
    trace("backend selected");
    if (request.json) {
      // stdout carries the JSON document alone: device printf goes into it.
      target.device_output = [&text = *env.device_output](std::string_view part) {
        text.append(part);
      };
    }

    BeforeLaunch before_launch;
    if (!request.json && !request.quiet)
      before_launch = [](const RunOutcome& o) { std::cout << render_launch_line(o) << std::flush; };
    RunOutcome outcome = run_kernel(request, target, before_launch);
    outcome.timings.init_ms = select_ms;
    outcome.timings.total_ms = ms_since_process_start();

    outcome.device_output = env.device_output;
    if (request.json)
      std::cout << dump_document(to_json(outcome)) << '\n';
    else if (!request.quiet)
      std::cout << render_results(outcome, request.print);
    else
      for (const auto& check : outcome.checks)
        if (!check.passed)
          std::cout << render_results(outcome, "none");
    trace("reported");
    // The driver releases a process's contexts when it exits; destroying ours first only delays
    // the exit (docs/ARCHITECTURE.md, Decisions).
    exit_without_teardown(outcome.status == "ok" ? 0 : static_cast<int>(ExitCode::check_failed));
  });
}

} // namespace gpurun
