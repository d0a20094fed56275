// `gpurun threads`: which thread gets which indices and how threads fall into warps; with --run,
// what a device reports for each thread, checked against the arithmetic.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "backends/registry.hpp"
#include "base/dims.hpp"
#include "base/error.hpp"
#include "pipeline/launch_limits.hpp"
#include "pipeline/target.hpp"
#include "threads/thread_capture.hpp"
#include "threads/thread_filter.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

namespace {

struct ThreadsOptions {
  std::string grid = "1";
  std::string block;
  unsigned warp_size = 0;
  std::string format = "table";
  bool json = false;
  std::uint64_t limit = 0;
  std::string where;
  bool run = false;
  std::string backend = "auto";
  int device = 0;
  std::string order = "sorted";
  double timeout_s = 0;
};

/// The device whose limits and warp size apply, if any.
struct ThreadsTarget {
  std::optional<Target> selected;
  [[nodiscard]] Device* device() const { return selected ? selected->device : nullptr; }
  [[nodiscard]] std::string label() const { return selected ? selected->label() : "none"; }
};

// --run and an explicit --backend need their device; otherwise a device only lends its warp size
// and limits, and without one the sm_90 defaults of DeviceProperties apply.
ThreadsTarget find_target(const BackendRegistry& registry, const ThreadsOptions& o) {
  const bool required = o.run || (o.backend != "auto" && !o.backend.empty());
  const TargetRequest request{o.backend, o.device,
                              o.run ? std::optional(Language::cuda) : std::nullopt};
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

nlohmann::ordered_json document_head(const WarpSummary& summary, const std::string& warp_source,
                                     const ThreadsTarget& target) {
  return {{"grid", dims_json(summary.grid)}, {"block", dims_json(summary.block)},
          {"warp_size", summary.warp_size},  {"warp_size_source", warp_source},
          {"device", target.label()},        {"summary", to_json(summary)}};
}

std::string markdown_list(const std::string& lines) {
  std::string out;
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);)
    out += "- " + line.substr(std::min(line.size(), line.find_first_not_of(' '))) + "\n";
  return out;
}

void print_summary(TableFormat format, const std::string& lines) {
  if (format == TableFormat::table)
    std::cout << lines << '\n';
  if (format == TableFormat::md)
    std::cout << markdown_list(lines) << '\n';
}

void run_threads(const CLI::App& cmd, const ThreadsOptions& o, CommandEnv& env) {
  const Dim3 grid = parse_dims(o.grid, "--grid");
  const Dim3 block = parse_dims(o.block, "--block");
  TableView view;
  if (o.json && cmd.count("--format") != 0 && o.format != "json")
    throw usage_error(fmt::format("--json: conflicts with --format {}", o.format));
  view.format = parse_table_format(o.json ? std::string("json") : o.format);
  if (cmd.count("--limit") != 0)
    view.limit = o.limit;
  const auto order = parse_capture_order(o.order);
  if (!o.run && cmd.count("--order") != 0)
    throw usage_error("--order: only applies with --run");

  const ThreadsTarget target = find_target(env.registry, o);
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

  auto summary_text = format_summary(summary);
  if (!o.run) {
    summary_text += fmt::format("warp size from: {}\n", warp_source);
    const ArithmeticTable table(layout);
    if (view.format == TableFormat::json) {
      write_json_document(std::cout, document_head(summary, warp_source, target), table, view);
      return;
    }
    print_summary(view.format, summary_text);
    write_rows(std::cout, table, view);
    return;
  }

  const std::optional<double> timeout =
      o.timeout_s > 0 ? std::optional<double>(o.timeout_s) : std::nullopt;
  const Capture capture = capture_threads(*target.selected, layout, timeout);
  const CapturedTable table(capture, order);
  const CaptureCheck check = check_capture(capture);
  const Placement placement = placement_of(capture);
  const int sms = target.device()->properties().multiprocessors;
  env.exit_code = check.ok() ? 0 : static_cast<int>(ExitCode::check_failed);

  summary_text += fmt::format("captured on {} · order: {} · timestamp: {}\n", target.label(),
                              o.order, table.timestamp_unit());
  switch (view.format) {
  case TableFormat::json: {
    auto head = document_head(summary, warp_source, target);
    head["backend"] = target.selected->backend_name();
    head["order"] = o.order;
    head["timestamp_unit"] = table.timestamp_unit();
    head["check"] = to_json(check);
    head["placement"] = to_json(placement);
    head["placement"]["device_sms"] = sms;
    write_json_document(std::cout, head, table, view);
    break;
  }
  case TableFormat::csv:
    write_rows(std::cout, table, view);
    if (!check.ok())
      std::cerr << format_check(check);
    break;
  case TableFormat::table:
  case TableFormat::md: {
    print_summary(view.format, summary_text);
    write_rows(std::cout, table, view);
    const auto report = format_check(check) + format_placement(placement, sms);
    std::cout << '\n' << (view.format == TableFormat::md ? markdown_list(report) : report);
    break;
  }
  }
}

} // namespace

void add_threads_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "threads", "Show which thread gets which indices and how threads fall into warps");
  auto o = std::make_shared<ThreadsOptions>();
  cmd->add_option("--grid", o->grid, "Blocks: X[,Y[,Z]] (default 1)");
  cmd->add_option("--block", o->block, "Threads per block: X[,Y[,Z]]")->required();
  cmd->add_option("--warp-size", o->warp_size,
                  "Threads per warp (default: the selected device's, else 32)");
  cmd->add_option("--format", o->format, "table (default), csv, json or md");
  cmd->add_flag("--json", o->json, "Same as --format json");
  cmd->add_option(
      "--limit", o->limit,
      "Most rows to print (default: table and md 64, csv and json all; 0: summary only)");
  cmd->add_option("--where", o->where,
                  "Keep rows matching EXPR over the column names, e.g. 'warp==1 && lane<4'");
  cmd->add_flag("--run", o->run,
                "Launch a capture kernel and check what the device reports against the table");
  cmd->add_option("--backend", o->backend, "auto (default), cuda, hip, opencl, metal, cpu");
  cmd->add_option("--device", o->device, "Device index (default 0)");
  cmd->add_option("--order", o->order, "With --run: sorted (default) or capture (arrival order)");
  cmd->add_option("--timeout", o->timeout_s, "With --run: seconds to wait for the kernel");
  cmd->callback([cmd, o, &env] { run_threads(*cmd, *o, env); });
}

} // namespace gpurun
