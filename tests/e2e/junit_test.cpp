// End-to-end: --junit on run, bench and compare writes a JUnit XML report CI systems read.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Junit, RunWritesEachExpectAsATestCase) {
  const auto dir = temp_dir();
  auto r = run_gpurun("kernels/examples/scalar_add.cu --backend cpu --no-cache --grid 1 --block "
                      "20 --arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=1 -q "
                      "--expect 'vector=f32[20]:iota(1,1)' --junit " +
                      (dir / "ok.xml").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto xml = read(dir / "ok.xml");
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0), 0u) << xml;
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase name=\"vector\" classname=\"scalar_add\""), std::string::npos)
      << xml;
  r = run_gpurun("kernels/examples/scalar_add.cu --backend cpu --no-cache --grid 1 --block 20 "
                 "--arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=1 -q --expect "
                 "'vector=f32[20]:iota(5,1)' --junit " +
                 (dir / "bad.xml").string());
  EXPECT_EQ(r.exit_code, 1);
  xml = read(dir / "bad.xml");
  EXPECT_NE(xml.find("failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"20 of 20 elements differ"), std::string::npos) << xml;
}

TEST(Junit, BenchAndCompareWriteTheirCases) {
  const auto dir = temp_dir();
  const auto a = (dir / "a.json").string(), x = (dir / "bench.xml").string();
  auto r = run_gpurun("bench tests/data/bench/mixed.json --backend cpu --min-time 0 "
                      "--min-samples 3 --max-samples 3 --json " +
                      a + " --junit " + x);
  EXPECT_EQ(r.exit_code, 1) << r.err; // mixed.json has cases that cannot run
  const auto xml = read(x);
  EXPECT_NE(xml.find("<testcase name=\"index/N:"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<error message="), std::string::npos) << xml;
  const auto cx = (dir / "compare.xml").string();
  r = run_gpurun("compare " + a + " " + a + " --junit " + cx);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto cxml = read(cx);
  EXPECT_NE(cxml.find("<testsuite name=\"gpurun compare\""), std::string::npos) << cxml;
  EXPECT_NE(cxml.find("failures=\"0\""), std::string::npos) << cxml;
}

} // namespace
} // namespace gpurun::test
