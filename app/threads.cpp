// `gpurun threads`: which thread gets which indices and how threads fall into warps; with --run,
// what a device reports for each thread, checked against the arithmetic.
#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "backends/registry.hpp"
#include "base/dims.hpp"
#include "base/error.hpp"
#include "output/printer.hpp"
#include "pipeline/launch_limits.hpp"
#include "pipeline/target.hpp"
#include "threads/thread_capture.hpp"
#include "threads/thread_filter.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

namespace {

struct ThreadsOptions {
  ParameterFlags parameters; ///< --grid, --block, --backend, --device, --timeout
  unsigned warp_size = 0;
  std::string format = "table";
  bool json = false;
  std::uint64_t limit = 0;
  std::string where;
  bool run = false;
  std::string order = "sorted";
};

/// The device whose limits and warp size apply, if any.
struct ThreadsTarget {
  std::optional<Target> selected;
  [[nodiscard]] Device* device() const { return selected ? selected->device : nullptr; }
  [[nodiscard]] std::string label() const { return selected ? selected->label() : "none"; }
};

// --run and an explicit --backend need their device; otherwise a device only lends its warp size
// and limits, and without one the sm_90 defaults of DeviceProperties apply.
ThreadsTarget find_target(const BackendRegistry& registry, const ThreadsOptions& o,
                          const RunRequest& given) {
  const bool required = o.run || (given.backend != "auto" && !given.backend.empty());
  // --run launches the CUDA capture kernel, or its OpenCL C twin on the opencl backend.
  const Language capture_language = given.backend == "opencl" ? Language::opencl : Language::cuda;
  const TargetRequest request{given.backend, given.device,
                              o.run ? std::optional(capture_language) : std::nullopt};
  try {
    return ThreadsTarget{select_target(registry, request)};
  } catch (const Error&) {
    if (required)
      throw;
    return ThreadsTarget{};
  }
}

unsigned choose_warp_size(const CLI::App& cmd, const ThreadsOptions& o, const ThreadsTarget& target,
                          std::string& source) {
  const bool given = cmd.count("--warp-size") != 0;
  if (given && o.warp_size == 0)
    throw usage_error("--warp-size 0: must be at least 1");
  if (o.run) {
    const auto device_ws = static_cast<unsigned>(target.device()->properties().warp_size);
    if (given && o.warp_size != device_ws)
      throw usage_error(fmt::format("--warp-size {} differs from the warp size {} of {} (--run "
                                    "compares with the device)",
                                    o.warp_size, device_ws, target.label()));
  }
  if (given) {
    source = "--warp-size";
    return o.warp_size;
  }
  if (target.device() != nullptr) {
    source = target.label();
    return static_cast<unsigned>(target.device()->properties().warp_size);
  }
  source = "default (no device available)";
  return 32;
}

void run_threads(const CLI::App& cmd, const ThreadsOptions& o, CommandEnv& env) {
  RunRequest given;
  apply_flags(given, o.parameters.given());
  const Dim3 grid = given.grid.value_or(Dim3{1, 1, 1});
  const Dim3 block = given.block.value_or(Dim3{1, 1, 1}); // --block is required
  TableView view;
  if (o.json && cmd.count("--format") != 0 && o.format != "json")
    throw usage_error(fmt::format("--json: conflicts with --format {}", o.format));
  view.format = parse_output_format(o.json ? std::string("json") : o.format);
  if (cmd.count("--limit") != 0)
    view.limit = o.limit;
  const auto order = parse_capture_order(o.order);
  if (!o.run && cmd.count("--order") != 0)
    throw usage_error("--order: only applies with --run");

  const ThreadsTarget target = find_target(env.registry, o, given);
  const DeviceProperties defaults; // sm_90 limits when no device is involved
  validate_launch(LaunchConfig{grid, block, 0},
                  target.device() != nullptr ? target.device()->properties() : defaults);
  std::string warp_source;
  const ThreadLayout layout(grid, block, choose_warp_size(cmd, o, target, warp_source));
  const WarpSummary summary = summarize(layout);

  const auto columns = o.run
                           ? captured_columns()
                           : std::vector<std::string>(thread_columns.begin(), thread_columns.end());
  std::optional<RowFilter> filter;
  if (cmd.count("--where") != 0)
    filter = RowFilter::parse(o.where, columns);
  view.filter = filter ? &*filter : nullptr;

  ThreadsReport report{summary, warp_source, target.label(), nullptr, view, std::nullopt};
  const auto printer = make_printer(view.format);
  if (!o.run) {
    const ArithmeticTable table(layout);
    report.table = &table;
    printer->print_threads(report);
    return;
  }

  const Capture capture = capture_threads(*target.selected, layout, given.timeout_s);
  const CapturedTable table(capture, order);
  report.table = &table;
  // OpenCL C has no SM id (the OpenCL capture kernel writes 0): no placement to tell.
  const bool knows_sms = target.selected->backend_name() != "opencl";
  report.capture =
      CaptureReport{target.selected->backend_name(), o.order,
                    table.timestamp_unit(),          check_capture(capture),
                    knows_sms ? placement_of(capture) : Placement{},
                    target.device()->properties().multiprocessors};
  env.exit_code = report.capture->check.ok() ? 0 : static_cast<int>(ExitCode::check_failed);
  printer->print_threads(report);
}

} // namespace

void add_threads_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "threads", "Show which thread gets which indices and how threads fall into warps");
  cmd->footer(
      "Examples:\n"
      "  gpurun threads --grid 2,2 --block 4,4,2\n"
      "  gpurun threads --block 96 --where 'warp==2 && lane<4'\n"
      "  gpurun threads --grid 4 --block 256 --limit 0            # the summary only\n"
      "  gpurun threads --grid 2 --block 64 --run --backend cpu   # checked against a real launch\n"
      "\n"
      "gpurun help threads explains the columns.");
  auto o = std::make_shared<ThreadsOptions>();
  o->parameters.add_to(*cmd, Command::threads);
  o->parameters.option("block")->required();
  cmd->add_option("--warp-size", o->warp_size,
                  "Threads per warp (default: the selected device's, else 32)");
  cmd->add_option("--format", o->format, "table (default), csv, json or md");
  cmd->add_flag("--json", o->json, "Same as --format json");
  cmd->add_option("--limit", o->limit,
                  "Most rows to print (default: table and md 64, csv and json all; 0: summary "
                  "only)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--where", o->where,
                  "Keep rows matching EXPR over the column names, e.g. 'warp==1 && lane<4'");
  cmd->add_flag("--run", o->run,
                "Launch a capture kernel and check what the device reports against the table");
  cmd->add_option("--order", o->order, "With --run: sorted (default) or capture (arrival order)");
  cmd->callback([cmd, o, &env] { run_threads(*cmd, *o, env); });
}

} // namespace gpurun
