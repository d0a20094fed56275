// `gpurun bench SUITE.json | KERNEL [flags]`: measure kernels (docs/bench.md).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/file_identity.hpp"
#include "base/json_read.hpp"
#include "bench/p2p.hpp"
#include "bench/runner.hpp"
#include "bench/shard.hpp"
#include "bench/spread.hpp"
#include "bench/suite.hpp"
#include "output/bench_report.hpp"
#include "output/color.hpp"
#include "output/junit.hpp"
#include "output/plot.hpp"
#include "output/printer.hpp"
#include "output/progress_line.hpp"
#include "pipeline/counters.hpp"
#include "pipeline/language.hpp"
#include "pipeline/spec.hpp"
#include "pipeline/target.hpp"

namespace gpurun {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

struct BenchCommandOptions {
  std::string file;
  std::vector<std::string> axes;
  /// The run parameters: the kernel-file form's case (--kernel, --grid, --arg, -D, …) and where
  /// the suite runs (--backend, --device).
  ParameterFlags parameters;
  std::string bytes; ///< the kernel-file form's bytes per launch
  std::string flops;
  // Where and how.
  std::string devices; ///< --devices LIST|all
  bool p2p = false;
  bool hot = false;
  bool batch = false;
  bool no_hold = false;
  double max_noise_percent = 0.5;
  std::size_t min_samples = 10;
  double min_time_s = 0.5;
  double timeout_s = 15;
  std::size_t max_samples = 1'000'000;
  double launch_timeout_s = 60;
  bool interleave = false;
  bool peak = false;
  std::string filter;
  std::string shard;
  std::string balance_from;
  bool list = false;
  std::string json_file;
  std::string csv_file;
  std::string md_file;
  std::string junit_file;
  std::string plot_file;
  std::optional<std::string> plot_x;
  std::string plot_y = "auto";
};

bool is_json_file(const std::string& path) {
  return fs::path(path).extension() == ".json";
}

// --backend and --device say where the suite runs; --metrics what is counted of every case;
// every other run parameter describes the kernel-file form's case.
bool selects_device(const RunParameter& p) {
  return p.name == "backend" || p.name == "device";
}

/// What a suite's every case takes from the command line besides the device: --metrics (after a
/// case's own "metrics").
bool measures_every_case(const RunParameter& p) {
  return p.name == "metrics";
}

bench::Suite load_suite(const CLI::App& cmd, const BenchCommandOptions& o) {
  GivenFlags case_flags = o.parameters.given();
  std::erase_if(case_flags.values, [](const auto& given) { return selects_device(*given.first); });
  auto given_text = [&](const char* flag, const std::string& text) {
    return cmd.count(flag) != 0 ? std::optional(text) : std::nullopt;
  };
  if (!is_json_file(o.file)) {
    case_flags.values.insert(case_flags.values.begin(), {&run_parameter("source"), {o.file}});
    return bench::single_case_suite(case_flags, given_text("--bytes", o.bytes),
                                    given_text("--flops", o.flops),
                                    fs::path(o.file).stem().string(), fs::current_path());
  }
  std::vector<std::string_view> case_only;
  for (const auto& given : case_flags.values)
    if (!measures_every_case(*given.first))
      case_only.push_back(given.first->flag());
  if (cmd.count("--bytes") != 0)
    case_only.push_back("--bytes");
  if (cmd.count("--flops") != 0)
    case_only.push_back("--flops");
  if (!case_only.empty())
    throw usage_error(fmt::format("{}: applies to a kernel file, not to {} (write it in the "
                                  "suite's cases)",
                                  case_only.front(), o.file));
  const json doc = read_json_file(o.file, "suite");
  std::error_code ec;
  const fs::path dir = fs::absolute(o.file, ec).parent_path();
  if (doc.is_object() && doc.contains("cases"))
    return bench::suite_from_json(doc, o.file, dir, fs::path(o.file).stem().string());
  if (!doc.is_object())
    throw usage_error(fmt::format("{}: neither a suite (a JSON object with \"cases\") nor a run "
                                  "spec (a JSON object)",
                                  o.file));
  // A run spec: one case, its axes from -a.
  return bench::single_case_suite(doc, fs::path(o.file).stem().string(), dir);
}

std::string iso_date() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  std::array<char, 64> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S%z", &local);
  std::string s = text.data();
  if (s.size() > 2)
    s.insert(s.size() - 2, ":"); // +0000 → +00:00, as Google Benchmark writes it
  return s;
}

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0)
    return "unknown";
  return name.data();
}

void write_output(const std::string& path, OutputFormat format, const bench::BenchReport& report) {
  if (path.empty())
    return;
  if (path == "-") {
    make_printer(format)->print_bench(report);
    return;
  }
  std::ostringstream text;
  make_printer(format, text, std::cerr)->print_bench(report);
  const std::string s = text.str();
  write_file_atomic(path, std::span(reinterpret_cast<const std::byte*>(s.data()), s.size()));
}

/// Refuses, before anything runs, an output that is one of the inputs: the suite or kernel file,
/// a case's source, --balance-from. By file identity, so "./suite.json" is "suite.json".
void check_outputs(const BenchCommandOptions& o, const std::vector<bench::BenchCase>& cases) {
  std::vector<NamedInput> inputs;
  if (!o.file.empty())
    inputs.push_back({o.file, is_json_file(o.file) ? "the suite" : "the kernel file"});
  std::set<fs::path> sources;
  for (const auto& c : cases)
    if (!c.error && !c.request.source_text && sources.insert(c.request.source).second)
      inputs.push_back({c.request.source, fmt::format("the source of case {}", c.name)});
  if (!o.balance_from.empty())
    inputs.push_back({o.balance_from, "the --balance-from results"});
  for (const auto& [flag, path] :
       {std::pair{"--json", &o.json_file}, std::pair{"--csv", &o.csv_file},
        std::pair{"--md", &o.md_file}, std::pair{"--junit", &o.junit_file},
        std::pair{"--plot", &o.plot_file}})
    check_output_is_no_input(flag, *path, inputs);
}

/// --plot's checks that need only the cases — an unknown or non-numeric --plot-x, no axis to
/// plot against, more lines than a plot can show — made before any case runs: the plot of the
/// cases as if each had run (those that cannot run left out, as they will be).
void check_plot_before_run(const std::vector<bench::BenchCase>& cases, const BenchCommandOptions& o,
                           PlotMetric metric) {
  bench::BenchReport report;
  for (const auto& c : cases) {
    if (c.error)
      continue;
    bench::CaseResult r;
    r.name = c.name;
    r.case_name = c.case_name;
    r.point = c.point;
    r.ok = true;
    r.summary.median = 1.0;
    if (c.bytes)
      r.bandwidth_gbs = 1.0;
    if (c.flops)
      r.gflops = 1.0;
    report.cases.push_back(std::move(r));
  }
  if (!report.cases.empty())
    (void)make_plot(report, "--plot", o.plot_x, metric);
}

/// Narrows `cases` to this job's shard — from --shard, else from a job array's environment —
/// and says so on stderr; nullopt (and `cases` untouched) when the suite is not sharded.
std::optional<bench::ShardInfo> take_shard(const CLI::App& cmd, const BenchCommandOptions& o,
                                           std::vector<bench::BenchCase>& cases) {
  const auto spec = cmd.count("--shard") != 0
                        ? std::optional(bench::parse_shard(o.shard))
                        : bench::shard_from_environment(bench::process_environment());
  if (!spec) {
    if (cmd.count("--balance-from") != 0)
      throw usage_error("--balance-from: applies to a shard (--shard K/N, or a job array's task)");
    return std::nullopt;
  }
  std::optional<std::map<std::string, double>> timings;
  if (cmd.count("--balance-from") != 0)
    timings = bench::read_case_timings(o.balance_from);
  const auto costs = bench::estimate_costs(cases, timings ? &*timings : nullptr);
  const auto assignment = bench::assign_shards(costs.costs, spec->count);
  bench::ShardInfo info{
      spec->index, spec->count, spec->source, std::string(bench::to_string(costs.basis)), {}};
  std::vector<bench::BenchCase> mine;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    info.suite_cases.push_back(cases[i].name);
    if (assignment[i] == spec->index)
      mine.push_back(std::move(cases[i]));
  }
  std::cerr << fmt::format("gpurun: shard {}/{} ({}): {} of {} cases, balanced by {}{}\n",
                           spec->index, spec->count, spec->source, mine.size(),
                           info.suite_cases.size(), info.cost_basis,
                           mine.empty() ? " (an empty shard: more shards than cases)" : "");
  cases = std::move(mine);
  return info;
}

void run_bench_command(const CLI::App& cmd, const BenchCommandOptions& o, CommandEnv& env) {
  if (!(o.max_noise_percent > 0))
    throw usage_error(
        fmt::format("--max-noise {}: must be above 0 (a percentage)", o.max_noise_percent));
  if (o.min_samples < 2)
    throw usage_error(fmt::format("--min-samples {}: must be at least 2", o.min_samples));
  if (o.max_samples < o.min_samples)
    throw usage_error(
        fmt::format("--max-samples {}: below --min-samples {}", o.max_samples, o.min_samples));
  if (!(o.timeout_s > 0))
    throw usage_error(
        fmt::format("--timeout {}: must be a number of seconds above 0", o.timeout_s));
  if (!(o.min_time_s >= 0))
    throw usage_error(fmt::format("--min-time {}: must be a number of seconds ≥ 0", o.min_time_s));
  if (o.hot && o.batch)
    throw usage_error("--hot: conflicts with --batch (a batch is always hot)");
  const PlotMetric plot_metric = parse_plot_metric(o.plot_y, "--plot-y");
  if (!o.plot_file.empty())
    check_plot_target(o.plot_file, "--plot");
  if (cmd.count("--devices") != 0 && cmd.count("--device") != 0)
    throw usage_error("--devices: conflicts with --device (one device, or several)");
  if (o.file.empty() && !o.p2p)
    throw usage_error("file: required (a suite, a run spec or a kernel file), unless --p2p "
                      "measures copies between devices only");
  std::vector<bench::Axis> axes;
  for (const auto& text : o.axes)
    axes.push_back(bench::parse_axis(text, "-a"));
  bench::Suite p2p_only;
  p2p_only.name = "p2p";
  const bench::Suite suite = o.file.empty() ? p2p_only : load_suite(cmd, o);
  std::vector<bench::BenchCase> cases =
      o.file.empty() ? std::vector<bench::BenchCase>{} : bench::expand(suite, axes, o.filter);
  if (is_json_file(o.file))
    for (const auto& [parameter, texts] : o.parameters.given().values)
      if (measures_every_case(*parameter))
        for (auto& c : cases)
          c.request.metrics.insert(c.request.metrics.end(), texts.begin(), texts.end());
  const auto shard = take_shard(cmd, o, cases);
  // Malformed --metrics names are an error before anything else, --list included.
  for (const auto& c : cases)
    (void)parse_metrics(c.request.metrics);
  if (o.list) {
    for (const auto& c : cases)
      fmt::print("{}{}\n", c.name, c.error ? " (cannot run: " + *c.error + ")" : "");
    return;
  }
  check_outputs(o, cases);
  if (!o.plot_file.empty())
    check_plot_before_run(cases, o, plot_metric);

  std::optional<Language> language;
  for (const auto& c : cases)
    if (!c.error) {
      language = detect_language(c.request.source);
      break;
    }
  RunRequest where;
  GivenFlags where_flags = o.parameters.given();
  std::erase_if(where_flags.values,
                [](const auto& given) { return !selects_device(*given.first); });
  apply_flags(where, where_flags);
  const Target target = select_target(env.registry, {where.backend, where.device, language});
  // --metrics: read before anything runs (a malformed name fails now); `list` shows the device's.
  std::vector<std::string> counted;
  for (const auto& c : cases) {
    if (c.error)
      continue;
    const MetricSelection metrics = parse_metrics(c.request.metrics);
    if (print_metric_catalog(metrics, target, o.json_file == "-"))
      return;
    for (const auto& m : metrics.metrics)
      if (std::find(counted.begin(), counted.end(), m) == counted.end())
        counted.push_back(m);
  }
  if (!counted.empty())
    target.device->create_context(ContextOptions{})->check_metrics(counted);
  // --devices (and --p2p): devices of the selected backend; --p2p alone takes all of them.
  std::vector<Target> targets;
  if (cmd.count("--devices") != 0 || o.p2p) {
    const auto devices = target.backend->devices();
    const auto list =
        bench::parse_device_list(cmd.count("--devices") != 0 ? o.devices : "all", devices.size());
    for (int d : list)
      targets.push_back(Target{target.backend, devices[static_cast<std::size_t>(d)], d});
  }

  bench::BenchOptions options;
  options.measure.cold = !o.hot;
  options.measure.batch = o.batch;
  options.measure.hold = !o.no_hold;
  options.measure.rules.max_noise = o.max_noise_percent / 100;
  options.measure.rules.min_samples = o.min_samples;
  options.measure.rules.min_time_s = o.min_time_s;
  options.measure.rules.timeout_s = o.timeout_s;
  options.measure.rules.max_samples = o.max_samples;
  options.measure.launch_timeout_s = watchdog_limit(o.launch_timeout_s, "--launch-timeout");
  options.interleave = o.interleave;
  options.peak = o.peak;
  ProgressLine progress(true, std::chrono::milliseconds(0));
  std::mutex progress_mutex; // several devices' workers report
  const bool spread = cmd.count("--devices") != 0;
  options.progress = [&](const bench::Progress& p) {
    const std::lock_guard lock(progress_mutex);
    progress.show(fmt::format("[{}/{}] {}{}: {} samples, noise {:.2f}%", p.index + 1, p.count,
                              spread ? fmt::format("device {}: ", p.device_index) : "", p.name,
                              p.samples, 100 * p.noise));
  };

  bench::BenchReport report =
      cases.empty() && o.p2p ? bench::device_report(suite.name, cases, target, options)
      : spread               ? bench::run_bench_spread(suite.name, cases, targets, options,
                                                       bench::estimate_costs(cases).costs)
                             : bench::run_bench(suite.name, cases, target, options);
  progress.clear();
  if (o.p2p)
    report.p2p = bench::measure_p2p(targets);
  report.shard = shard;
  report.version = GPURUN_VERSION;
  report.date = iso_date();
  report.host_name = host_name();
  const bool json_on_stdout = o.json_file == "-" || o.csv_file == "-" || o.md_file == "-";
  if (!json_on_stdout) {
    make_printer(OutputFormat::human)->print_bench(report);
  } else {
    // The table on stdout does not say which devices failed; stderr does.
    for (const auto& d : report.devices)
      if (d.failed())
        std::cerr << warning_prefix()
                  << fmt::format("device {}:{} failed: {}\n", report.backend, d.index, d.error);
    if (report.p2p)
      for (const auto& e : report.p2p->errors)
        std::cerr << warning_prefix() << "--p2p: " << e << '\n';
  }
  write_output(o.json_file, OutputFormat::json, report);
  write_output(o.csv_file, OutputFormat::csv, report);
  write_output(o.md_file, OutputFormat::md, report);
  if (!o.junit_file.empty()) {
    std::vector<JunitCase> cases;
    for (const auto& c : report.cases) {
      JunitCase t{c.name,       report.suite, c.ok ? c.summary.median : 0.0,
                  std::nullopt, std::nullopt, std::nullopt};
      if (!c.ok)
        t.error = c.reason;
      cases.push_back(std::move(t));
    }
    write_file_atomic(o.junit_file, junit_xml("gpurun bench " + report.suite, cases));
  }
  if (!o.plot_file.empty())
    write_plot_svg(make_plot(report, "--plot", o.plot_x, plot_metric), o.plot_file);
  // A device that failed outranks a skipped case: the suite ran, but not where it was asked to.
  const bool device_failed = std::any_of(report.devices.begin(), report.devices.end(),
                                         [](const bench::DeviceRecord& d) { return d.failed(); }) ||
                             (report.p2p && !report.p2p->errors.empty());
  env.exit_code = device_failed          ? static_cast<int>(ExitCode::device)
                  : report.failed() == 0 ? 0
                                         : static_cast<int>(ExitCode::check_failed);
}

} // namespace

void add_bench_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "bench", "Measure kernels: a suite (SUITE.json) or one kernel file with its flags");
  cmd->footer(
      "Examples:\n"
      "  gpurun bench kernels/suites/stream.json\n"
      "  gpurun bench kernels/suites/stream.json -a 'N[pow2]=[20:26]' --json base.json --plot "
      "sweep.svg\n"
      "  gpurun bench kernels/examples/saxpy.cu -k 'saxpy<float>' -a 'N[pow2]=[16:24]' -g "
      "'(N+255)/256' -b 256 --arg a=2.0 --arg 'x=f32[N]:rand(seed=1)' --arg "
      "'y=f32[N]:rand(seed=2)' "
      "--arg n=N --bytes "
      "'3*N*4'\n"
      "  gpurun bench suite.json --batch --hot --max-noise 1 --json new.json && gpurun compare "
      "base.json new.json\n"
      "  gpurun bench kernels/suites/stream.json --devices all --json all.json   # one worker per "
      "GPU\n"
      "  gpurun bench --p2p --devices 0-3                                       # copy bandwidth "
      "matrix\n"
      "\n"
      "With a kernel file, the case's flags (--grid, --block, --shared, --arg, --global, "
      "--expect,\n"
      "-D, --bytes, --flops) may use the axes, as a suite's cases do.\n"
      "gpurun help bench has the method (cold L2, stream hold, stopping rules) and the report "
      "fields;\ngpurun help multi-gpu has --devices, --p2p and buffers on other devices.");
  auto o = std::make_shared<BenchCommandOptions>();
  cmd->add_option("file", o->file,
                  "Suite (.json with \"cases\"), run spec (.json) or kernel file (required "
                  "unless --p2p)");
  cmd->add_option("-a,--axis", o->axes,
                  "Axis: N=[1,2,3], N=[2:10:2], N[pow2]=[20:28], T=[float,double]; replaces a "
                  "suite axis of the same name")
      ->allow_extra_args(false);
  o->parameters.add_to(*cmd, Command::bench);
  cmd->add_option("--bytes", o->bytes, "Bytes moved per launch, may use axes: '3*N*4'");
  cmd->add_option("--flops", o->flops, "Floating-point operations per launch: '2*N'");
  cmd->add_option("--devices", o->devices,
                  "Spread the cases over these devices, one worker each: 0,1 · 0-3 · all "
                  "(devices of different models each run the whole suite)");
  cmd->add_flag("--p2p", o->p2p,
                "Measure the copy bandwidth between every pair of devices (those of --devices, "
                "else all) and add the matrix to the report");
  cmd->add_flag("--hot", o->hot, "Do not flush L2 before each sample");
  cmd->add_flag("--batch", o->batch, "Time back-to-back launches; per launch = total / count");
  cmd->add_flag("--no-hold", o->no_hold,
                "Do not hold the stream while enqueueing: the launch latency is then timed too");
  cmd->add_option("--max-noise", o->max_noise_percent,
                  "Stop when the relative stdev is at most PCT percent (default 0.5)");
  // The check: CLI11 reads an unsigned option with strtoull, which takes 2^64 and -1 silently.
  cmd->add_option("--min-samples", o->min_samples, "Samples before stopping (default 10)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--min-time", o->min_time_s,
                  "Seconds of measured kernel time before stopping (default 0.5)");
  cmd->add_option("--timeout", o->timeout_s, "Seconds of sampling per case at most (default 15)");
  cmd->add_option("--max-samples", o->max_samples, "Samples per case at most (default 1000000)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--launch-timeout", o->launch_timeout_s,
                  "Watchdog: give up on one launch after SEC seconds (default 60)");
  cmd->add_flag("--interleave", o->interleave,
                "Sample the cases round-robin, so slow drift spreads over all of them");
  cmd->add_flag("--peak", o->peak,
                "Measure the device's copy bandwidth first and show % of it per case");
  cmd->add_option("--filter", o->filter, "Only cases whose name matches this regular expression");
  cmd->add_option("--shard", o->shard,
                  "Run shard K of N (K from 0): a balanced 1/N of the cases; default: from "
                  "SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX with GPURUN_SHARD_COUNT");
  cmd->add_option("--balance-from", o->balance_from,
                  "Balance the shards by the case timings of an earlier bench JSON");
  cmd->add_flag("--list", o->list, "List the cases the suite expands to (of the shard) and exit");
  cmd->add_option("--junit", o->junit_file,
                  "Write a JUnit XML report (each case a test; a skipped case an error) to FILE");
  cmd->add_option("--json", o->json_file,
                  "Write Google Benchmark JSON with every sample to FILE ('-': stdout)");
  cmd->add_option("--csv", o->csv_file, "Write CSV to FILE ('-': stdout)");
  cmd->add_option("--md", o->md_file, "Write the Markdown table to FILE ('-': stdout)");
  cmd->add_option("--plot", o->plot_file,
                  "Draw the sweep as SVG into FILE (gnuplot): time or GB/s against an axis");
  cmd->add_option("--plot-x", o->plot_x, "The axis to plot against (default: the longest sweep)");
  cmd->add_option("--plot-y", o->plot_y,
                  "What to plot: auto (GB/s when the cases declare bytes, else time), time, "
                  "bandwidth, flops");
  cmd->callback([cmd, o, &env] { run_bench_command(*cmd, *o, env); });
}

} // namespace gpurun
