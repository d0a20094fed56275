#include "output/comparison_report.hpp"

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "output/printer.hpp"

namespace gpurun {
namespace {

using bench::CaseComparison;
using bench::ComparisonReport;
using bench::Verdict;

CaseComparison compared(std::string name, Verdict verdict, std::optional<double> base,
                        std::optional<double> fresh, std::optional<double> p) {
  CaseComparison c;
  c.name = std::move(name);
  c.verdict = verdict;
  c.baseline_median_s = base;
  c.new_median_s = fresh;
  c.baseline_samples = base ? 10 : 0;
  c.new_samples = fresh ? 10 : 0;
  if (base && fresh)
    c.change = *fresh / *base - 1;
  c.p_value = p;
  return c;
}

ComparisonReport sample_report() {
  ComparisonReport r;
  r.baseline_file = "base.json";
  r.new_file = "new.json";
  r.baseline_format = bench::ResultFormat::gpurun;
  r.new_format = bench::ResultFormat::google_benchmark;
  r.cases.push_back(compared("copy/N:1048576", Verdict::slower, 12.5e-6, 13.75e-6, 0.00002));
  r.cases.push_back(compared("triad", Verdict::same, 2e-3, 2.01e-3, 0.4));
  r.cases.push_back(compared("old|case", Verdict::only_in_baseline, 1.5, std::nullopt, {}));
  auto skipped = compared("matmul", Verdict::skipped, std::nullopt, std::nullopt, {});
  skipped.reason = "new: compile error";
  r.cases.push_back(skipped);
  return r;
}

TEST(ComparisonReport, SummaryLineCountsEveryVerdict) {
  EXPECT_EQ(summary_line(sample_report()),
            "1 slower, 0 faster, 1 same, 0 noisy; 1 only in baseline, 1 skipped");
  ComparisonReport plain;
  plain.cases.push_back(compared("k", Verdict::noisy, 1, 2, 0.3));
  EXPECT_EQ(summary_line(plain), "0 slower, 0 faster, 0 same, 1 noisy");
}

TEST(ComparisonReport, TableIsAlignedMarkdown) {
  const std::string expected =
      "| case           | baseline |      new |  change | p-value | verdict                      "
      "|\n"
      "|:---------------|---------:|---------:|--------:|--------:|:-----------------------------|"
      "\n"
      "| copy/N:1048576 |  12.5 µs | 13.75 µs | +10.00% | <0.0001 | slower                       "
      "|\n"
      "| triad          |     2 ms |  2.01 ms |  +0.50% |  0.4000 | same                         "
      "|\n"
      "| old\\|case      |    1.5 s |        - |       - |       - | only in baseline             "
      "|\n"
      "| matmul         |        - |        - |       - |       - | skipped (new: compile error) "
      "|\n"
      "\n"
      "1 slower, 0 faster, 1 same, 0 noisy; 1 only in baseline, 1 skipped\n";
  EXPECT_EQ(render_comparison_table(sample_report()), expected);
}

TEST(ComparisonReport, JsonDocument) {
  const auto doc = comparison_json(sample_report());
  EXPECT_EQ(doc["baseline"]["file"], "base.json");
  EXPECT_EQ(doc["new"]["format"], "google-benchmark");
  EXPECT_EQ(doc["alpha"], 0.05);
  EXPECT_EQ(doc["threshold"], 0.05);
  ASSERT_EQ(doc["cases"].size(), 4u);
  const auto& first = doc["cases"][0];
  EXPECT_EQ(first["name"], "copy/N:1048576");
  EXPECT_EQ(first["verdict"], "slower");
  EXPECT_DOUBLE_EQ(first["baseline_median_s"].get<double>(), 12.5e-6);
  EXPECT_NEAR(first["change"].get<double>(), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(first["p_value"].get<double>(), 0.00002);
  EXPECT_EQ(first["baseline_samples"], 10);
  EXPECT_FALSE(first.contains("reason"));
  EXPECT_EQ(doc["cases"][2]["verdict"], "only_in_baseline");
  EXPECT_TRUE(doc["cases"][2]["new_median_s"].is_null());
  EXPECT_TRUE(doc["cases"][2]["p_value"].is_null());
  EXPECT_EQ(doc["cases"][3]["reason"], "new: compile error");
  EXPECT_EQ(doc["summary"]["slower"], 1);
  EXPECT_EQ(doc["summary"]["same"], 1);
  EXPECT_EQ(doc["summary"]["only_in_baseline"], 1);
  EXPECT_EQ(doc["summary"]["skipped"], 1);
  EXPECT_EQ(doc["exit_code"], 1);
}

// A noisy case says why: the threshold the noise hides, and the interval where there is one.
TEST(ComparisonReport, NoisyCasesSayTheyAreUndecidedAndWhy) {
  ComparisonReport r;
  auto noisy = compared("k", Verdict::noisy, 1e-3, 1.01e-3, 0.8);
  noisy.interval = bench::ChangeInterval{-0.031, 0.074};
  r.cases.push_back(noisy);
  r.cases.push_back(compared("one", Verdict::noisy, 1.0, 1.5, {}));
  const std::string table = render_comparison_table(r);
  EXPECT_NE(table.find("noisy (undecided: noise too high for 5%; 95% CI -3.10% to +7.40%)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("noisy (undecided: noise too high for 5%) "), std::string::npos) << table;
  const auto doc = comparison_json(r);
  EXPECT_NEAR(doc["cases"][0]["change_low"].get<double>(), -0.031, 1e-12);
  EXPECT_NEAR(doc["cases"][0]["change_high"].get<double>(), 0.074, 1e-12);
  EXPECT_EQ(doc["cases"][0]["reason"],
            "undecided: noise too high for 5%; 95% CI -3.10% to +7.40%");
  EXPECT_TRUE(doc["cases"][1]["change_low"].is_null());
}

TEST(ComparisonReport, PrintersOfEachFormat) {
  const auto report = sample_report();
  for (const auto format : {OutputFormat::human, OutputFormat::md}) {
    std::ostringstream out, err;
    make_printer(format, out, err)->print_comparison(report);
    EXPECT_EQ(out.str(), render_comparison_table(report));
  }
  std::ostringstream out, err;
  make_printer(OutputFormat::json, out, err)->print_comparison(report);
  EXPECT_EQ(nlohmann::json::parse(out.str())["exit_code"], 1);

  std::ostringstream csv_out, csv_err;
  try {
    make_printer(OutputFormat::csv, csv_out, csv_err)->print_comparison(report);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--format csv: not available for gpurun compare");
  }
}

} // namespace
} // namespace gpurun
