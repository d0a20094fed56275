// `gpurun tune KERNEL -p NAME=[…] …`: find a kernel's best configuration (docs/tune.md).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "base/arithmetic.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/file_identity.hpp"
#include "base/format.hpp"
#include "bench/runner.hpp"
#include "bench/shard.hpp"
#include "bench/statistics.hpp"
#include "bench/suite.hpp"
#include "output/color.hpp"
#include "output/plot.hpp"
#include "output/progress_line.hpp"
#include "pipeline/language.hpp"
#include "pipeline/spec.hpp"
#include "pipeline/target.hpp"
#include "tune/cache.hpp"
#include "tune/report.hpp"
#include "tune/search.hpp"
#include "tune/space.hpp"
#include "tune/strategy.hpp"

namespace gpurun {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

struct TuneOptions {
  std::string file;
  std::vector<std::string> params;
  std::vector<std::string> restrictions;
  ParameterFlags parameters;
  std::string bytes;
  std::string flops;
  std::string strategy;
  std::string budget;
  std::uint64_t seed = 1;
  std::string objective = "time";
  std::string reference;
  std::string cache;
  std::vector<std::string> simulate;
  std::size_t repeat = 0;
  double within_percent = 5;
  std::size_t top = 10;
  std::string json_file;
  std::string t4_file;
  std::string plot_file;
  std::string shard;
  bool list = false;
  bool no_check = false;
  // Measurement, lighter than bench's defaults: a search measures many configurations.
  bool hot = false;
  double max_noise_percent = 1;
  std::size_t min_samples = 5;
  double min_time_s = 0.05;
  double timeout_s = 2;
  double launch_timeout_s = 10;
};

bool selects_device(const RunParameter& p) {
  return p.name == "backend" || p.name == "device";
}

/// "100" → 100 configurations; "90s", "5m", "2h" → wall time.
tune::Budget parse_budget(const std::string& text) {
  tune::Budget b;
  if (text.empty())
    return b;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = text.substr(used);
  if (used == 0 || !(v > 0))
    throw usage_error(fmt::format("--budget {}: a number of configurations (100) or a time "
                                  "(90s, 5m, 2h)",
                                  text));
  if (unit.empty()) {
    if (v != static_cast<double>(static_cast<std::size_t>(v)))
      throw usage_error(fmt::format("--budget {}: configurations are counted whole", text));
    b.evaluations = static_cast<std::size_t>(v);
  } else if (unit == "s") {
    b.seconds = v;
  } else if (unit == "m" || unit == "min") {
    b.seconds = v * 60;
  } else if (unit == "h") {
    b.seconds = v * 3600;
  } else {
    throw usage_error(
        fmt::format("--budget {}: the unit '{}' is not s, m or h", text, unit));
  }
  return b;
}

std::vector<bench::Axis> parse_params(const std::vector<std::string>& texts) {
  std::vector<bench::Axis> params;
  for (const auto& t : texts)
    params.push_back(bench::parse_axis(t, "-p"));
  return params;
}

/// The parameters a template kernel name takes as arguments ('matmul<TILE>'): they are
/// substituted there, not defined as macros.
std::set<std::string> template_params(const std::string& kernel,
                                      const std::vector<bench::Axis>& params) {
  std::set<std::string> used;
  const auto open = kernel.find('<');
  if (open == std::string::npos)
    return used;
  for (const auto& p : params) {
    bench::AxisPoint marker{{p.name, "\x01"}};
    if (bench::substitute(kernel.substr(open), marker) != kernel.substr(open))
      used.insert(p.name);
  }
  return used;
}

std::string given_kernel(const GivenFlags& flags) {
  for (const auto& [parameter, texts] : flags.values)
    if (parameter->name == "kernel" && !texts.empty())
      return texts.back();
  return {};
}

bool gives(const GivenFlags& flags, std::string_view name) {
  for (const auto& [parameter, texts] : flags.values)
    if (parameter->name == name && !texts.empty())
      return true;
  return false;
}

tune::Evaluation evaluation_of(const bench::CaseResult& r, const std::string& key, double wall_s) {
  tune::Evaluation e;
  e.key = key;
  e.wall_s = wall_s;
  if (!r.ok) {
    e.status = r.failure == "compile" ? tune::Status::compile_error
               : r.failure == "check" ? tune::Status::wrong_answer
               : r.failure == "device" ? tune::Status::launch_failure
               : r.failure == "spec"   ? tune::Status::invalid
                                       : tune::Status::error;
    e.reason = r.reason;
    return e;
  }
  e.time_s = r.summary.median;
  e.gbs = r.bandwidth_gbs;
  e.gflops = r.gflops;
  if (r.measurement.energy_j && !r.measurement.samples_s.empty())
    e.energy_j = *r.measurement.energy_j / static_cast<double>(r.measurement.samples_s.size());
  e.samples = r.summary.count;
  e.noise = r.summary.noise;
  e.sampling_s = r.measurement.wall_s;
  return e;
}

/// The convergence as a plot: best-so-far against configurations visited.
PlotData convergence_plot(const tune::TuneContext& c, const tune::SearchResult& r) {
  PlotData plot;
  plot.title = fmt::format("gpurun tune {} ({}, seed {})", c.kernel, c.strategy, c.seed);
  plot.x_axis = "configurations visited";
  const bool time = c.objective == tune::Objective::time;
  plot.y_label = time ? "best median time (µs)" : fmt::format("best {}", to_string(c.objective));
  plot.metric = time ? PlotMetric::time : PlotMetric::bandwidth;
  PlotSeries series{"best so far", {}};
  for (const auto& p : r.convergence)
    if (p.best)
      series.points.push_back(
          {static_cast<double>(p.visited), time ? *p.best * 1e6 : *p.best});
  plot.series.push_back(std::move(series));
  return plot;
}

void write_json_file(const std::string& path, const json& doc) {
  const std::string text = doc.dump(2) + "\n";
  if (path == "-")
    std::cout << text;
  else
    write_file_atomic(path, text);
}

void write_outputs(const TuneOptions& o, const tune::TuneContext& context,
                   const tune::Space& space, const tune::SearchResult& r) {
  if (!o.json_file.empty())
    write_json_file(o.json_file, tune::tune_report_json(context, space, r, o.top));
  if (!o.t4_file.empty())
    write_json_file(o.t4_file, tune::t4_results(space, r, context.objective));
  if (!o.plot_file.empty() && !r.convergence.empty())
    write_plot_svg(convergence_plot(context, r), o.plot_file);
}

std::string default_strategy(const TuneOptions& o, const tune::Budget& budget,
                             const tune::Space& space) {
  if (!o.strategy.empty())
    return o.strategy;
  return budget.evaluations && *budget.evaluations < space.size() ? "bayes"
         : budget.seconds                                         ? "bayes"
                                                                  : "brute_force";
}

/// --simulate: the search replayed over caches; with --repeat, each strategy named (a comma
/// list) over that many seeds, counting the configurations each needed to come within
/// --within percent of the caches' best.
void run_simulation(const TuneOptions& o, CommandEnv& env) {
  const tune::Cache merged = tune::merge_caches(o.simulate, "--simulate");
  const std::vector<bench::Axis>& params = merged.header.params;
  tune::Space space = tune::Space::of(params, merged.configs);
  if (!o.restrictions.empty()) {
    const tune::Space restricted(params, o.restrictions);
    std::vector<std::vector<std::uint32_t>> kept;
    for (const auto& c : merged.configs)
      if (restricted.find(c))
        kept.push_back(c);
    space = tune::Space::of(params, kept);
  }
  if (space.size() == 0)
    throw usage_error(
        fmt::format("--simulate: no configuration in {}", fmt::join(o.simulate, ", ")));
  const tune::Objective objective = tune::parse_objective(o.objective, "--objective");
  const tune::Budget budget = parse_budget(o.budget);
  tune::TuneContext context{merged.header.kernel, merged.header.source,  merged.header.backend,
                            merged.header.device, "",                    o.seed,
                            objective,            fmt::format("{}", fmt::join(o.simulate, ", "))};

  if (o.repeat == 0) {
    context.strategy = default_strategy(o, budget, space);
    auto strategy = tune::make_strategy(context.strategy, space, o.seed);
    const auto r = tune::simulate(space, *strategy, objective, budget, merged.evaluations);
    tune::print_tune_report(o.json_file == "-" || o.t4_file == "-" ? std::cerr : std::cout,
                            context, space, r, o.top);
    write_outputs(o, context, space, r);
    env.exit_code = r.best ? 0 : static_cast<int>(ExitCode::check_failed);
    return;
  }

  // Strategies compared: how many configurations each needs to come near the space's best.
  const auto optimum = tune::best_value(space, merged.evaluations, objective);
  if (!optimum)
    throw usage_error("--simulate: no configuration in the cache succeeded");
  std::vector<std::string> names;
  std::stringstream list(o.strategy.empty() ? std::string("random,annealing,genetic,bayes")
                                            : o.strategy);
  for (std::string name; std::getline(list, name, ',');)
    names.push_back(name);
  json rows = json::array();
  fmt::print("{} configurations; optimum {}; budget {} per run; {} seeds from {}\n", space.size(),
             *optimum, budget.evaluations ? std::to_string(*budget.evaluations) : "none", o.repeat,
             o.seed);
  fmt::print("{:<12} {:>8} {:>10} {:>10} {:>10}\n", "strategy", "reached",
             fmt::format("median ≤{}%", o.within_percent), "mean", "% of space");
  for (const auto& name : names) {
    const tune::StrategyRecord rec =
        tune::rate_strategy(name, space, merged.evaluations, objective, budget, o.seed, o.repeat,
                            o.within_percent / 100);
    fmt::print("{:<12} {:>4}/{:<3} {:>10} {:>10.1f} {:>9.1f}%\n", name, rec.reached, o.repeat,
               rec.median, rec.mean, 100 * rec.median / static_cast<double>(space.size()));
    rows.push_back({{"strategy", name},
                    {"runs", o.repeat},
                    {"reached", rec.reached},
                    {"median_evaluations", rec.median},
                    {"mean_evaluations", rec.mean},
                    {"evaluations", rec.evaluations}});
  }
  if (!o.json_file.empty())
    write_json_file(o.json_file, {{"tool", "gpurun tune --simulate --repeat"},
                                  {"caches", o.simulate},
                                  {"space_size", space.size()},
                                  {"optimum", *optimum},
                                  {"within_percent", o.within_percent},
                                  {"seed", o.seed},
                                  {"strategies", rows}});
  env.exit_code = 0;
}

void run_tune_command(const CLI::App& cmd, const TuneOptions& o, CommandEnv& env) {
  if (!o.simulate.empty()) {
    if (!o.file.empty())
      throw usage_error(fmt::format("--simulate: replays a cache, without a kernel file ({})",
                                    o.file));
    run_simulation(o, env);
    return;
  }
  if (o.repeat != 0)
    throw usage_error("--repeat: applies to --simulate");
  if (o.file.empty())
    throw usage_error("file: required (the kernel file), unless --simulate replays a cache");
  if (!(o.max_noise_percent > 0))
    throw usage_error(fmt::format("--max-noise {}: must be above 0", o.max_noise_percent));
  if (o.min_samples < 2)
    throw usage_error(fmt::format("--min-samples {}: must be at least 2", o.min_samples));
  if (!(o.timeout_s > 0))
    throw usage_error(fmt::format("--timeout {}: must be above 0", o.timeout_s));
  if (!o.plot_file.empty())
    check_plot_target(o.plot_file, "--plot");

  const auto params = parse_params(o.params);
  tune::Space space(params, o.restrictions);
  if (space.size() == 0)
    throw usage_error(fmt::format("--restrict: no configuration of the {} satisfies the "
                                  "restrictions",
                                  space.unrestricted_size()));
  const tune::Objective objective = tune::parse_objective(o.objective, "--objective");
  if (objective == tune::Objective::bandwidth && cmd.count("--bytes") == 0)
    throw usage_error("--objective gbs: needs --bytes (bytes moved per launch)");
  if (objective == tune::Objective::flops && cmd.count("--flops") == 0)
    throw usage_error("--objective gflops: needs --flops (operations per launch)");
  tune::Budget budget = parse_budget(o.budget);

  // --shard K/N: this job's share of the space, brute force over it.
  std::optional<std::string> shard_text;
  if (cmd.count("--shard") != 0 || bench::shard_from_environment(bench::process_environment())) {
    const auto spec = cmd.count("--shard") != 0
                          ? std::optional(bench::parse_shard(o.shard))
                          : bench::shard_from_environment(bench::process_environment());
    if (!o.strategy.empty() && o.strategy != "brute_force")
      throw usage_error("--shard: shards a brute-force search (--strategy brute_force)");
    std::vector<std::vector<std::uint32_t>> mine;
    for (std::size_t i = 0; i < space.size(); ++i)
      if (i % spec->count == spec->index)
        mine.push_back(space.coords(i));
    std::cerr << fmt::format("gpurun: shard {}/{} ({}): {} of {} configurations\n", spec->index,
                             spec->count, spec->source, mine.size(), space.size());
    space = tune::Space::of(params, mine);
    shard_text = spec->source;
  }

  // The case: the kernel file's run parameters, each tuning parameter a -D macro unless the
  // kernel's template arguments take it.
  GivenFlags flags = o.parameters.given();
  GivenFlags where_flags = flags;
  std::erase_if(flags.values, [](const auto& given) { return selects_device(*given.first); });
  std::erase_if(where_flags.values,
                [](const auto& given) { return !selects_device(*given.first); });
  flags.values.insert(flags.values.begin(), {&run_parameter("source"), {o.file}});
  const std::string kernel = given_kernel(flags);
  const auto in_template = template_params(kernel, params);
  std::vector<std::string> defines;
  for (const auto& p : params)
    if (in_template.count(p.name) == 0)
      defines.push_back(p.name + "=" + p.name);
  if (!defines.empty())
    flags.add(run_parameter("defines"), defines);
  const bool user_expects = gives(flags, "expects");
  const auto given_text = [&](const char* flag, const std::string& text) {
    return cmd.count(flag) != 0 ? std::optional(text) : std::nullopt;
  };
  const bench::Suite suite =
      bench::single_case_suite(flags, given_text("--bytes", o.bytes),
                               given_text("--flops", o.flops), fs::path(o.file).stem().string(),
                               fs::current_path());
  const auto make_case = [&](std::size_t config) {
    std::vector<bench::Axis> point;
    for (const auto& [name, value] : space.point(config))
      point.push_back({name, {value}});
    auto cases = bench::expand(suite, point);
    return cases.at(0);
  };

  std::vector<NamedInput> inputs{{o.file, "the kernel file"}};
  for (const auto& [flag, path] :
       {std::pair{"--json", &o.json_file}, std::pair{"--t4", &o.t4_file},
        std::pair{"--plot", &o.plot_file}, std::pair{"--cache", &o.cache}})
    check_output_is_no_input(flag, *path, inputs);

  std::optional<std::size_t> reference;
  if (!o.reference.empty()) {
    if (o.no_check)
      throw usage_error("--reference: conflicts with --no-check");
    if (user_expects)
      throw usage_error("--reference: conflicts with --expect (the outputs are checked against "
                        "one or the other)");
    std::map<std::string, std::string> want;
    std::stringstream parts(o.reference);
    for (std::string part; std::getline(parts, part, ',');) {
      const auto eq = part.find('=');
      if (eq == std::string::npos)
        throw usage_error(fmt::format("--reference {}: NAME=VALUE,… for every parameter",
                                      o.reference));
      want[std::string(trim(part.substr(0, eq)))] = std::string(trim(part.substr(eq + 1)));
    }
    std::string key;
    for (const auto& p : params) {
      const auto it = want.find(p.name);
      if (it == want.end())
        throw usage_error(fmt::format("--reference {}: no value for {}", o.reference, p.name));
      key += (key.empty() ? "" : ",") + it->second;
    }
    if (want.size() != params.size())
      throw usage_error(fmt::format("--reference {}: names a parameter not tuned", o.reference));
    reference = space.find_key(key);
    if (!reference)
      throw usage_error(fmt::format("--reference {}: not a configuration of the space (a value "
                                    "not listed, or restricted)",
                                    o.reference));
  }

  if (o.list) {
    for (std::size_t i = 0; i < space.size(); ++i)
      fmt::print("{}\n", space.describe(i));
    return;
  }

  RunRequest where;
  apply_flags(where, where_flags);
  const Target target =
      select_target(env.registry, {where.backend, where.device, detect_language(o.file)});
  bench::BenchOptions options;
  options.measure.cold = !o.hot;
  options.measure.rules.max_noise = o.max_noise_percent / 100;
  options.measure.rules.min_samples = o.min_samples;
  options.measure.rules.min_time_s = o.min_time_s;
  options.measure.rules.timeout_s = o.timeout_s;
  options.measure.launch_timeout_s = watchdog_limit(o.launch_timeout_s, "--launch-timeout");
  bench::BenchReport device = bench::device_report("tune", {}, target, options);

  tune::TuneContext context{kernel.empty() ? fs::path(o.file).stem().string() : kernel,
                            o.file,
                            device.backend,
                            device.device,
                            default_strategy(o, budget, space),
                            o.seed,
                            objective,
                            {}};
  tune::CacheHeader header{context.kernel, o.file,         params, o.restrictions,
                           std::string(to_string(objective)), device.backend, device.device};
  std::map<std::string, tune::Evaluation> known;
  std::unique_ptr<tune::CacheWriter> cache;
  if (!o.cache.empty()) {
    std::error_code ec;
    if (fs::exists(o.cache, ec)) {
      const tune::Cache had = tune::read_cache(o.cache, "--cache " + o.cache);
      if (had.format != "gpurun")
        throw usage_error(fmt::format("--cache {}: a Kernel Tuner cache (read it with "
                                      "--simulate); gpurun appends to its own",
                                      o.cache));
      tune::check_cache_matches(had, header, "--cache " + o.cache);
      known = had.evaluations;
      if (had.skipped_lines > 0)
        std::cerr << warning_prefix()
                  << fmt::format("--cache {}: {} damaged line(s) skipped (a write cut short)\n",
                                 o.cache, had.skipped_lines);
    }
    cache = std::make_unique<tune::CacheWriter>(o.cache, header);
  }

  auto strategy = tune::make_strategy(context.strategy, space, o.seed);
  tune::Search search(space, *strategy, objective, budget, known);
  std::cerr << fmt::format("gpurun tune: {} configurations ({} before restrictions), {} on {}, "
                           "seed {}{}\n",
                           space.size(), space.unrestricted_size(), context.strategy,
                           device.device, o.seed,
                           known.empty() ? "" : fmt::format(", {} in the cache", known.size()));

  // The reference outputs: the first configuration that runs (or --reference) saves its buffers;
  // every other configuration's are compared with them.
  const fs::path reference_dir =
      fs::temp_directory_path() / fmt::format("gpurun-tune-{}", ::getpid());
  struct RemoveDir {
    fs::path dir;
    ~RemoveDir() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove_reference{reference_dir};
  std::vector<std::string> reference_expects;
  bool reference_ready = user_expects || o.no_check;
  struct InFlight {
    std::size_t config;
    bool is_reference;
    std::chrono::steady_clock::time_point start;
  };
  std::optional<InFlight> in_flight;
  std::optional<std::size_t> waiting; ///< the search's pending configuration, behind a reference
  std::string reference_failure;
  const auto visit_record = [&](std::size_t config, tune::Evaluation e, bool pending) {
    if (cache)
      cache->append(e, space.point(config));
    if (pending)
      search.record(std::move(e));
    else
      search.learn(std::move(e));
  };
  const auto case_for = [&](std::size_t config, bool is_reference) {
    bench::BenchCase c = make_case(config);
    if (is_reference) {
      std::error_code ec;
      fs::remove_all(reference_dir, ec);
      c.request.save_dir = reference_dir;
    } else {
      for (const auto& e : reference_expects)
        c.request.expects.push_back(e);
    }
    in_flight = InFlight{config, is_reference, std::chrono::steady_clock::now()};
    return c;
  };
  ProgressLine progress(true, std::chrono::milliseconds(0));
  const bench::AdaptiveFeed feed =
      [&](const bench::CaseResult* last) -> std::optional<bench::BenchCase> {
    if (last && in_flight) {
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                        in_flight->start)
                              .count();
      tune::Evaluation e = evaluation_of(*last, space.key(in_flight->config), wall);
      const bool is_pending = waiting && *waiting == in_flight->config;
      if (in_flight->is_reference && e.status == tune::Status::ok) {
        reference_ready = true;
        for (const auto& entry : fs::directory_iterator(reference_dir))
          if (entry.path().extension() == ".npy")
            reference_expects.push_back(entry.path().stem().string() + "=@" +
                                        entry.path().string());
      }
      if (in_flight->is_reference && e.status != tune::Status::ok && reference) {
        reference_failure = fmt::format("--reference {}: {}", o.reference, e.reason);
        in_flight.reset();
        return std::nullopt;
      }
      visit_record(in_flight->config, std::move(e), is_pending);
      if (is_pending)
        waiting.reset();
      in_flight.reset();
    }
    if (!waiting)
      waiting = search.next();
    if (!waiting)
      return std::nullopt;
    progress.show(fmt::format("[{} visited] {}", search.result().configs.size(),
                              space.describe(*waiting)));
    if (!reference_ready) {
      // --reference first; else the configuration the search wants is tried as the reference.
      if (reference && *reference != *waiting)
        return case_for(*reference, true);
      return case_for(*waiting, true);
    }
    return case_for(*waiting, false);
  };
  const auto loss = bench::run_bench_adaptive(device, target, options, feed);
  progress.clear();
  if (loss) {
    if (in_flight && waiting && *waiting == in_flight->config && !device.cases.empty())
      visit_record(in_flight->config,
                   evaluation_of(device.cases[0], space.key(in_flight->config), 0), true);
    search.stop(fmt::format("device lost: {}", loss->reason));
  }
  if (!reference_failure.empty())
    throw Error(ExitCode::check_failed, reference_failure);
  const tune::SearchResult& r = search.result();
  std::ostream& out = o.json_file == "-" || o.t4_file == "-" ? std::cerr : std::cout;
  tune::print_tune_report(out, context, space, r, o.top);
  if (shard_text)
    out << fmt::format("shard: {} (merge the shards' caches with --simulate A B …)\n",
                             *shard_text);
  write_outputs(o, context, space, r);
  env.exit_code = loss        ? static_cast<int>(ExitCode::device)
                  : r.best    ? 0
                              : static_cast<int>(ExitCode::check_failed);
}

} // namespace

void add_tune_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "tune", "Find a kernel's best configuration: a search over -D macros and template "
              "arguments, every configuration verified before it is timed");
  cmd->footer(
      "Examples:\n"
      "  gpurun tune matmul.cu -p 'BLOCK=[8,16,32]' -p 'TILE=[1,2,4]' --restrict "
      "'BLOCK*TILE <= 64' \\\n"
      "      -g '1024/(BLOCK*TILE),1024/BLOCK' -b BLOCK,BLOCK --arg 'a=f32[1024*1024]:rand' ...\n"
      "  gpurun tune k.cu -k 'scale<BX>' -p 'BX[pow2]=[5:10]' -b BX -g '(N+BX-1)/BX' "
      "--arg ... --budget 20 --strategy bayes --cache k.cache\n"
      "  gpurun tune --simulate kernel_tuner_cache.json --strategy bayes --budget 100\n"
      "  gpurun tune --simulate k.cache --repeat 50 --budget 200   # strategies compared\n"
      "\n"
      "Each parameter is a -D macro (NAME=VALUE), unless the --kernel template takes it; the\n"
      "flags of the case (--grid, --block, --arg, --bytes, …) may use the parameters.\n"
      "gpurun help tune has the strategies, the cache and the reports.");
  auto o = std::make_shared<TuneOptions>();
  cmd->add_option("file", o->file, "Kernel file");
  cmd->add_option("-p,--param", o->params,
                  "Tuning parameter: NAME=[8,16,32], NAME=[32:256:32], NAME[pow2]=[5:10], "
                  "NAME=[a,b] (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--restrict", o->restrictions,
                  "A condition every configuration must meet: 'TILE*BLOCK_X <= 1024' "
                  "(integer expression; and, or allowed; repeatable)")
      ->allow_extra_args(false);
  o->parameters.add_to(*cmd, Command::tune);
  cmd->add_option("--bytes", o->bytes, "Bytes moved per launch, may use the parameters");
  cmd->add_option("--flops", o->flops, "Floating-point operations per launch");
  cmd->add_option("--strategy", o->strategy,
                  "brute_force, random, annealing, genetic or bayes (default: brute_force; "
                  "bayes when --budget is smaller than the space)");
  cmd->add_option("--budget", o->budget,
                  "Configurations to visit (100) or wall time (90s, 5m, 2h); default: all");
  cmd->add_option("--seed", o->seed, "Seed of the strategy's random choices (default 1)");
  cmd->add_option("--objective", o->objective,
                  "time (default, minimized), gbs, gflops (maximized; need --bytes, --flops) or "
                  "energy (NVML)");
  cmd->add_option("--reference", o->reference,
                  "The configuration whose outputs every other must match: 'BX=32,TILE=8' "
                  "(default: the first that runs; --expect instead checks against fixed values)");
  cmd->add_flag("--no-check", o->no_check,
                "Do not compare the configurations' outputs with the reference's (for kernels "
                "whose outputs differ by design, as partial sums do); --expect still checks");
  cmd->add_option("--cache", o->cache,
                  "Append every evaluation to FILE and reuse those already there (resumable)");
  cmd->add_option("--simulate", o->simulate,
                  "Replay the search from caches (gpurun's or Kernel Tuner's; several: shards "
                  "merged), no device")
      ->allow_extra_args(false);
  cmd->add_option("--repeat", o->repeat,
                  "With --simulate: run each strategy (--strategy a,b,…) with N seeds and compare "
                  "the configurations each needs to come within --within percent of the best")
      ->check(whole_number_at_least(1));
  cmd->add_option("--within", o->within_percent, "With --repeat: percent of the best (default 5)");
  cmd->add_option("--top", o->top, "Configurations in the table (default 10)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--json", o->json_file,
                  "Write the search (best, top, every evaluation, convergence) to FILE ('-': "
                  "stdout)");
  cmd->add_option("--t4", o->t4_file, "Write the evaluations in Kernel Tuner's T4 format to FILE");
  cmd->add_option("--plot", o->plot_file, "Draw the convergence (best so far) as SVG into FILE");
  cmd->add_option("--shard", o->shard,
                  "Brute-force shard K of N (K from 0); default: from SLURM_ARRAY_TASK_ID or "
                  "JOB_COMPLETION_INDEX with GPURUN_SHARD_COUNT");
  cmd->add_flag("--list", o->list, "List the configurations of the space (of the shard) and exit");
  cmd->add_flag("--hot", o->hot, "Do not flush L2 before each sample");
  cmd->add_option("--max-noise", o->max_noise_percent,
                  "Stop sampling a configuration at this relative stdev, percent (default 1)");
  cmd->add_option("--min-samples", o->min_samples, "Samples per configuration at least (default 5)")
      ->check(whole_number_at_least(0));
  cmd->add_option("--min-time", o->min_time_s,
                  "Seconds of kernel time per configuration at least (default 0.05)");
  cmd->add_option("--timeout", o->timeout_s,
                  "Seconds of sampling per configuration at most (default 2)");
  cmd->add_option("--launch-timeout", o->launch_timeout_s,
                  "Watchdog: give up on one launch after SEC seconds (default 10)");
  cmd->callback([cmd, o, &env] { run_tune_command(*cmd, *o, env); });
}

} // namespace gpurun
