#include "output/bench_report.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

bench::BenchReport two_cases() {
  bench::BenchReport r;
  r.suite = "s";
  r.version = "1.2.3";
  r.backend = "cuda";
  r.device = "GPU";
  r.peak_bandwidth_gbs = 1000;
  r.mode = "cold";
  r.axis_names = {"N"};
  bench::CaseResult ok;
  ok.name = "copy/N:1024";
  ok.case_name = "copy";
  ok.point = {{"N", "1024"}};
  ok.ok = true;
  ok.measurement.samples_s = {2e-6, 1e-6, 3e-6};
  ok.summary = bench::summarize(ok.measurement.samples_s);
  ok.bytes = 8192;
  ok.bandwidth_gbs = 8192 / 2e-6 / 1e9;
  ok.peak_fraction = *ok.bandwidth_gbs / 1000;
  ok.warnings = {"one, with a comma"};
  bench::CaseResult skipped;
  skipped.name = "bad/N:1024";
  skipped.case_name = "bad";
  skipped.point = {{"N", "1024"}};
  skipped.reason = "check out failed";
  r.cases = {ok, skipped};
  return r;
}

TEST(BenchReport, MarkdownTableIsAlignedWithAxisColumns) {
  const std::string md = bench_markdown(two_cases());
  EXPECT_TRUE(md.starts_with("| case |    N | samples |")) << md;
  EXPECT_NE(md.find("| copy | 1024 |       3 |   2 µs | 1 µs | 3 µs | 50.00% |  4.1 |   0.4% |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("skipped: check out failed"), std::string::npos) << md;
  // Every line has the same display width.
  std::size_t width = 0;
  std::size_t start = 0;
  while (start < md.size()) {
    const auto end = md.find('\n', start);
    std::size_t w = 0;
    for (std::size_t i = start; i < end; ++i)
      w += (static_cast<unsigned char>(md[i]) & 0xc0) != 0x80 ? 1 : 0;
    if (width == 0)
      width = w;
    EXPECT_EQ(w, width) << md.substr(start, end - start);
    start = end + 1;
  }
}

TEST(BenchReport, CsvQuotesFieldsWithCommas) {
  const std::string csv = bench_csv(two_cases());
  EXPECT_TRUE(csv.starts_with("name,case,N,status,samples,median_s,")) << csv;
  EXPECT_NE(csv.find("\ncopy/N:1024,copy,1024,ok,3,2e-06,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"one, with a comma\"\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nbad/N:1024,bad,1024,skipped,0,"), std::string::npos) << csv;
}

} // namespace
} // namespace gpurun
