// `gpurun run FILE …` (also the default command): run one kernel and report.
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/process_clock.hpp"
#include "output/color.hpp"
#include "output/junit.hpp"
#include "output/printer.hpp"
#include "output/progress_line.hpp"
#include "output/run_report.hpp"
#include "output/counter_report.hpp"
#include "pipeline/collect.hpp"
#include "pipeline/counters.hpp"
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

bool print_metric_catalog(const MetricSelection& metrics, const Target& target, bool json) {
  if (!metrics.list)
    return false;
  const auto context = target.device->create_context(ContextOptions{});
  const MetricCatalog catalog = context->metric_catalog();
  if (json)
    std::cout << catalog_json(catalog).dump(2) << '\n';
  else
    std::cout << catalog_text(catalog);
  return true;
}

ProgressLine::Status launch_status(const Context& context, const std::string& kernel) {
  return [&context, kernel] {
    const auto p = context.launch_progress();
    if (!p || p->blocks == 0)
      return fmt::format("running {}", kernel);
    std::string text =
        fmt::format("running {}: block {} of {} ({:.0f}%)", kernel,
                    format_count(static_cast<double>(p->blocks_done)),
                    format_count(static_cast<double>(p->blocks)),
                    100.0 * static_cast<double>(p->blocks_done) / static_cast<double>(p->blocks));
    if (p->blocks_done > 0 && p->blocks_done < p->blocks)
      text +=
          fmt::format(", about {} left",
                      rough_duration(p->seconds * static_cast<double>(p->blocks - p->blocks_done) /
                                     static_cast<double>(p->blocks_done)));
    return text;
  };
}

void add_run_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("run", "Run one kernel (the default command: gpurun FILE …)");
  cmd->footer(
      "Examples:\n"
      "  gpurun kernels/examples/scalar_add.cu --grid 1 --block 20 --arg 'vector=f32[20]:iota' "
      "--arg size=20 --arg scalar=20.0\n"
      "  gpurun kernels/examples/saxpy.cu -k 'saxpy<float>' -g 4 -b 256 -a a=2.0 -a "
      "'x=f32[1024]:iota' -a 'y=f32[1024]:ones' -a n=1024 --expect 'y=f32[1024]:iota(1,2)'\n"
      "  gpurun kernels/examples/saxpy.json --backend cpu --memcheck\n"
      "  gpurun kernels/examples/vector_add.json -arch=sm_90 --use_fast_math --repeat 20 --json\n"
      "  gpurun kernels/examples/reduce_sum.cl -g 4 -b 256 -a 'in=f32[1024]:ones' -a 'out=f32[4]' "
      "-a n=1024 -a partial=local:f32[256]\n"
      "\n"
      "Arguments, one --arg per kernel parameter in order: NAME=TYPE[DIMS]:FILL is a buffer\n"
      "(f32[1024]:iota, u8[1<<20]:rand(seed=7), f32[64,64]:@in.npy; no fill: zeros), NAME=NUMBER "
      "a\n"
      "scalar (size=20, scalar=2.5, u64:1<<20), NAME=local:BYTES the local memory of an OpenCL\n"
      "__local pointer parameter. OpenCL (.cl) launches global = grid × block work-items in\n"
      "work-groups of local = block. gpurun help args has the whole grammar, gpurun help spec\n"
      "the JSON run spec, gpurun help opencl the OpenCL backend, gpurun help exit-codes the exit "
      "codes.");
  auto options = std::make_shared<RunOptions>();
  add_run_options(*cmd, *options);

  cmd->callback([cmd, options, &env] {
    if (options->json)
      env.device_output.emplace(); // in the document, also in an error document
    RunRequest request = make_run_request(*options);
    trace("request built");
    const double select_start = ms_since_process_start();
    const Target target = select_target(
        env.registry, {request.backend, request.device, detect_language(request.source)});
    const double select_ms = ms_since_process_start() - select_start;
    trace("backend selected");
    const MetricSelection metrics = parse_metrics(request.metrics);
    if (print_metric_catalog(metrics, target, request.json))
      exit_without_teardown(0);
    DeviceOutputSink device_output;
    if (request.json) {
      // stdout carries the JSON document alone: device printf goes into it.
      device_output = [&text = *env.device_output](std::string_view part) { text.append(part); };
    }

    const auto printer = make_printer(request.json ? OutputFormat::json : OutputFormat::human);
    const bool for_people = !request.quiet && !request.json;
    std::optional<PreparedRun> prepared;
    {
      ProgressLine progress(for_people);
      progress.show(fmt::format("compiling {} for {}", request.source.filename().string(),
                                target.backend->name()));
      prepared.emplace(prepare(request, target, device_output));
    }
    PreparedRun& run = *prepared;
    check_metrics(*run.context, metrics);
    if (options->verbose && !request.json)
      std::cerr << fmt::format("compiler: {}{}\n", run.outcome.compiler,
                               run.outcome.source_summary.empty()
                                   ? std::string()
                                   : "; whole file: " + run.outcome.source_summary);
    if (options->verbose && !request.json && run.outcome.occupancy)
      std::cerr << occupancy_line(*run.outcome.occupancy);
    if (!request.quiet)
      printer->print_launch(run.outcome);
    {
      ProgressLine progress(for_people);
      progress.show(launch_status(*run.context, run.outcome.kernel));
      execute(run, request.timeout_s);
      collect(run, request);
      execute_timed(run, request.repeat - 1, request.timeout_s);
      if (!metrics.empty()) {
        progress.show(fmt::format("counting {} metrics of {}", metrics.metrics.size(),
                                  run.outcome.kernel));
        run.outcome.counters = measure_counters(run, metrics, request.timeout_s);
        if (metrics.roofline)
          run.outcome.roofline = roofline_from_counters(*run.outcome.counters);
      }
    }
    if (options->verbose && !request.json)
      if (const std::string engine = run.context->last_launch_engine(); !engine.empty())
        std::cerr << "engine: " << engine << "\n";
    run.outcome.timings.init_ms = select_ms;
    run.outcome.timings.total_ms = ms_since_process_start();
    run.outcome.device_output = env.device_output;

    printer->print_run(run.outcome, RunView{request.print, request.quiet});
    if (!options->junit_file.empty())
      write_file_atomic(options->junit_file, run_junit(run.outcome));
    for (const std::string& warning : run.outcome.warnings)
      std::cerr << warning_prefix() << with_kernel_names(warning) << '\n';
    trace("reported");
    // The driver releases a process's contexts when it exits; destroying ours first only delays
    // the exit (docs/ARCHITECTURE.md, Decisions). Except under --leak-check: a leak checker
    // watching the driver (compute-sanitizer --leak-check full) reports when the context is
    // destroyed, so it is torn down first (docs/sanitizers.md).
    const int code = run.outcome.status == "ok" ? 0 : static_cast<int>(ExitCode::check_failed);
    if (request.device_settings.leak_check) {
      PreparedRun done = std::move(run);
    }
    exit_without_teardown(code);
  });
}

} // namespace gpurun
