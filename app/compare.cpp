// `gpurun compare BASELINE [BASELINE…] NEW`: the regression gate. Exit 1 only when some case is
// significantly slower by more than the threshold; 2 when a file cannot be read
// (docs/compare.md).
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "app/command.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/file_identity.hpp"
#include "bench/compare.hpp"
#include "bench/result_file.hpp"
#include "output/color.hpp"
#include "output/comparison_report.hpp"
#include "output/junit.hpp"
#include "output/printer.hpp"

namespace gpurun {

namespace {

struct CompareArgs {
  std::vector<std::string> files; ///< the baseline runs, then the new results

  double alpha = 0.05;
  double threshold_percent = 5;
  bool json = false;
  std::string md_file;
  std::string junit_file;
};

bench::CompareOptions validated_options(const CompareArgs& args) {
  if (!std::isfinite(args.alpha) || args.alpha <= 0 || args.alpha >= 1)
    throw usage_error(fmt::format("--alpha {}: must be between 0 and 1", args.alpha));
  if (!std::isfinite(args.threshold_percent) || args.threshold_percent < 0)
    throw usage_error(
        fmt::format("--threshold {}: must be a percentage of 0 or more", args.threshold_percent));
  return {args.alpha, args.threshold_percent / 100};
}

} // namespace

void add_compare_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two benchmark result files; exit 1 when a case got significantly slower");
  cmd->footer(
      "Examples:\n"
      "  gpurun compare base.json new.json                   # exit 1 when a case got significantly slower\n"
      "  gpurun compare base.json new.json --threshold 2 --alpha 0.01 --junit compare.xml\n"
      "  gpurun compare google-benchmark.json nvbench.json --json\n"
      "  gpurun compare base-1.json base-2.json base-3.json new.json   # run-to-run drift counted\n"
      "\n"
      "gpurun help compare has the test (Mann-Whitney U) and the verdicts.");
  auto args = std::make_shared<CompareArgs>();
  cmd->add_option("FILES", args->files,
                  "BASELINE [BASELINE...] NEW: results before the change (gpurun bench, Google "
                  "Benchmark or nvbench JSON; several runs of it let compare count the drift "
                  "from run to run), then after it")
      ->required()
      ->expected(2, 1 << 20);
  cmd->add_option("--alpha", args->alpha,
                  "Significance level of the Mann-Whitney U test (default 0.05)");
  cmd->add_option("--threshold", args->threshold_percent,
                  "Largest change of the median, in percent, that counts as the same (default 5)");
  cmd->add_flag("--json", args->json, "Print the comparison as JSON");
  cmd->add_option("--md", args->md_file, "Also write the Markdown table to FILE");
  cmd->add_option("--junit", args->junit_file,
                  "Also write a JUnit XML report (each case a test; a regression a failure)");
  cmd->callback([args, &env] {
    const auto options = validated_options(*args);
    if (args->files.size() < 2)
      throw usage_error(
          "compare: give the baseline's results and the new ones (two files or more)");
    std::vector<NamedInput> inputs;
    const std::size_t runs = args->files.size() - 1;
    for (std::size_t i = 0; i < runs; ++i)
      inputs.push_back({args->files[i], runs == 1 ? std::string("the baseline file")
                                                  : fmt::format("baseline file {}", i + 1)});
    inputs.push_back({args->files.back(), "the new results file"});
    check_output_is_no_input("--md", args->md_file, inputs);
    check_output_is_no_input("--junit", args->junit_file, inputs);
    std::vector<bench::ResultFile> baselines;
    for (std::size_t i = 0; i + 1 < args->files.size(); ++i)
      baselines.push_back(bench::read_result_file(args->files[i]));
    const auto fresh = bench::read_result_file(args->files.back());
    for (const auto& file : baselines)
      for (const auto& warning : file.warnings)
        std::cerr << warning_prefix() << warning << '\n';
    for (const auto& warning : fresh.warnings)
      std::cerr << warning_prefix() << warning << '\n';
    const auto report = bench::compare_results(baselines, fresh, options);
    for (const auto& warning : report.warnings)
      std::cerr << warning_prefix() << warning << '\n';
    if (!args->md_file.empty())
      write_file_atomic(args->md_file, render_comparison_table(report));
    if (!args->junit_file.empty()) {
      std::vector<JunitCase> cases;
      for (const auto& c : report.cases) {
        JunitCase t{c.name,       "compare",    c.new_median_s.value_or(0.0),
                    std::nullopt, std::nullopt, std::nullopt};
        if (c.verdict == bench::Verdict::slower)
          t.failure = fmt::format("slower: median {:+.2f}% (p = {:.4f})",
                                  100 * c.change.value_or(0), c.p_value.value_or(0));
        else if (c.verdict != bench::Verdict::same && c.verdict != bench::Verdict::faster &&
                 c.verdict != bench::Verdict::noisy)
          t.skipped =
              std::string(bench::to_string(c.verdict)) + (c.reason.empty() ? "" : ": " + c.reason);
        cases.push_back(std::move(t));
      }
      write_file_atomic(args->junit_file, junit_xml("gpurun compare", cases));
    }
    make_printer(args->json ? OutputFormat::json : OutputFormat::human)->print_comparison(report);
    env.exit_code = report.exit_code();
  });
}

} // namespace gpurun
