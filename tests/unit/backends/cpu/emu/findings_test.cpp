// Folding, limiting and summarizing of sanitizer findings (emu/findings.cpp).
#include "backends/cpu/emu/findings.hpp"

#include <gtest/gtest.h>

namespace gpurun::emu {
namespace {

TEST(Findings, RepeatsFoldIntoOneWithACountAndAreDescribedOnce) {
  Findings findings;
  int described = 0;
  for (int i = 0; i < 5; ++i)
    findings.report(FindingKey{Tool::racecheck, 0, 10, 20}, Severity::error, 7, [&] {
      ++described;
      return std::string("hazard");
    });
  findings.report(FindingKey{Tool::racecheck, 0, 10, 21}, Severity::warning, 9,
                  [] { return std::string("other"); });
  ASSERT_EQ(findings.all().size(), 2u);
  EXPECT_EQ(described, 1);
  EXPECT_EQ(findings.all()[0].count, 5u);
  EXPECT_EQ(findings.all()[1].count, 1u);
  EXPECT_TRUE(findings.any_error());
}

TEST(Findings, TheEarliestOccurrenceIsKeptWhicheverWorkerReportsFirst) {
  // Block 3's thread is reported before block 0's (another worker got there first): the report
  // names block 0, and findings come in the order of their earliest occurrence.
  Findings findings;
  findings.report(FindingKey{Tool::initcheck, 1, 5, 0}, Severity::error,
                  occurrence_order(3, 0), [] { return std::string("block 3"); });
  findings.report(FindingKey{Tool::racecheck, 0, 1, 2}, Severity::error,
                  occurrence_order(1, 4), [] { return std::string("race in block 1"); });
  findings.report(FindingKey{Tool::initcheck, 1, 5, 0}, Severity::error,
                  occurrence_order(0, 7), [] { return std::string("block 0"); });
  findings.report(FindingKey{Tool::initcheck, 1, 5, 0}, Severity::error,
                  occurrence_order(2, 0), [] { return std::string("block 2"); });
  const auto all = findings.all();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].text, "block 0");
  EXPECT_EQ(all[0].count, 3u);
  EXPECT_EQ(all[1].text, "race in block 1");
}

TEST(Findings, OnlyWarningsAreNoError) {
  Findings findings;
  findings.report(FindingKey{Tool::racecheck, 16, 1, 2}, Severity::warning, 0,
                  [] { return std::string("same value"); });
  EXPECT_FALSE(findings.any_error());
}

TEST(Summarize, ShowsTheFirstFindingsInFullAndCountsTheRest) {
  std::vector<Finding> all = {
      {Tool::racecheck, Severity::error, "a", 3},
      {Tool::initcheck, Severity::error, "b", 1},
      {Tool::racecheck, Severity::warning, "c", 1},
      {Tool::racecheck, Severity::error, "d", 1},
  };
  const FindingsReport r = summarize(all, "k", 2);
  EXPECT_EQ(r.summary,
            "kernel 'k': racecheck found 2 errors and 1 warning; initcheck found 1 error");
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0], "racecheck error: a [3 times]");
  EXPECT_EQ(r.lines[1], "initcheck error: b");
  EXPECT_EQ(r.lines[2],
            "… and 2 more not shown (--max-findings 2): racecheck 1 error and 1 warning");
}

TEST(Summarize, NothingLeftOutSaysNothingMore) {
  const FindingsReport r = summarize({{Tool::synccheck, Severity::error, "x", 1}}, "k", 10);
  EXPECT_EQ(r.summary, "kernel 'k': synccheck found 1 error");
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0], "synccheck error: x");
}

} // namespace
} // namespace gpurun::emu
