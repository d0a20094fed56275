// --metrics on the CUDA backend: CUPTI's range profiler counts what the launch must have done
// (the bytes a vector add moves, the FMAs a saxpy executes), replays restore the inputs so that
// an accumulating kernel counts as its first launch did, the outputs stay those of the timed
// launch, and the device's catalog lists the metrics. scripts/check-counters.py compares every
// metric with Nsight Compute's on the bundled suites.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

bool cuda_available() {
  return run_gpurun("devices --check cuda").exit_code == 0;
}

nlohmann::json document(const RunResult& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::parse_error& e) {
    ADD_FAILURE() << e.what() << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err;
    return nlohmann::json::object();
  }
}

double metric(const nlohmann::json& doc, const std::string& name) {
  return doc.at("counters").at("metrics").at(name).at("value").get<double>();
}

TEST(GpuCounters, DramBytesAndFmasOfASaxpy) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  constexpr long n = 1 << 24;
  const auto r = run_gpurun(fmt::format(
      "kernels/examples/saxpy.cu --backend cuda --json -k 'saxpy<float>' -g {} -b 256 -a a=2.0 "
      "-a 'x=f32[{}]:iota' -a 'y=f32[{}]:ones' -a n={} --print none --metrics "
      "dram__bytes.sum,dram__bytes_read.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,"
      "gpu__time_duration.sum",
      n / 256, n, n, n));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = document(r);
  // x and y read from DRAM, the L2 holding none of them: 8 bytes per element. y's writes reach
  // DRAM only as far as the L2 evicts them during the kernel (it keeps up to its size dirty).
  EXPECT_NEAR(metric(doc, "dram__bytes_read.sum"), 8.0 * n, 0.02 * 8.0 * n);
  EXPECT_GE(metric(doc, "dram__bytes.sum"), 0.98 * 8.0 * n);
  EXPECT_LE(metric(doc, "dram__bytes.sum"), 1.02 * 12.0 * n);
  EXPECT_EQ(metric(doc, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), n);
  EXPECT_GT(metric(doc, "gpu__time_duration.sum"), 0);
  EXPECT_EQ(doc.at("counters").at("metrics").at("dram__bytes.sum").at("unit"), "byte");
  EXPECT_GE(doc.at("counters").at("passes").get<int>(), 1);
}

TEST(GpuCounters, ReplaysStartFromTheRunsInputs) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  // run_once works only while its flag is 0 and then sets it: every pass of the preset's several
  // must start from the run's inputs to count the work, and the outputs reported are the first
  // launch's.
  constexpr int n = 1 << 16;
  const std::string run = fmt::format(
      "tests/data/e2e/run_once.cu --backend cuda --json -g 1 -b 256 -a 'data=f32[{}]:ones' "
      "-a 'done=i32[1]:0' -a n={} --print all",
      n, n);
  const auto plain = run_gpurun(run);
  const auto counted = run_gpurun(run + " --metrics roofline");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(counted.exit_code, 0) << counted.err;
  const auto a = document(plain);
  const auto b = document(counted);
  EXPECT_EQ(a.at("buffers"), b.at("buffers"));
  EXPECT_GT(b.at("counters").at("passes").get<int>(), 1) << "the preset needs several passes";
  EXPECT_EQ(metric(b, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), n);
  // The data read from DRAM in every pass (a replay without restored memory would read only the
  // flag); its writes stay in the L2.
  EXPECT_GE(metric(b, "dram__bytes.sum"), 4.0 * n);
  ASSERT_TRUE(b.contains("roofline")) << counted.out;
  EXPECT_GT(b.at("roofline").at("roofs").at("bandwidth_bytes_per_s").get<double>(), 1e12);
  EXPECT_EQ(b.at("roofline").at("precision"), "fp32");
}

TEST(GpuCounters, UnknownMetricIsAUsageErrorNamingIt) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  const auto r = run_gpurun("kernels/examples/vector_add.json --backend cuda --metrics "
                            "dram__bytes.sum,no_such__metric.sum");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no_such__metric.sum"), std::string::npos) << r.err;
}

TEST(GpuCounters, ListShowsTheDevicesMetrics) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  const auto r = run_gpurun("kernels/examples/vector_add.json --backend cuda --metrics list --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = document(r);
  bool dram = false;
  for (const auto& m : doc.at("metrics"))
    dram = dram || m.at("name") == "dram__bytes";
  EXPECT_TRUE(dram) << r.out.substr(0, 2000);
  EXPECT_GT(doc.at("metrics").size(), 100u);
}

TEST(GpuCounters, BenchPlacesEachCaseOnTheRoofline) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  const auto r = run_gpurun("bench kernels/suites/stream.json -a 'N[pow2]=[24:24]' --filter triad "
                            "--metrics roofline --max-samples 20 --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = document(r);
  const auto& roofs = doc.at("context").at("gpurun").at("roofline");
  EXPECT_EQ(roofs.at("source"), "counters");
  for (const auto& entry : doc.at("benchmarks")) {
    if (!entry.contains("gpurun"))
      continue;
    const auto& g = entry.at("gpurun");
    ASSERT_TRUE(g.contains("roofline")) << g.dump();
    EXPECT_EQ(g.at("roofline").at("bound"), "memory");
    EXPECT_GT(g.at("roofline").at("fraction").get<double>(), 0.3);
    EXPECT_LE(g.at("roofline").at("fraction").get<double>(), 1.05);
    EXPECT_EQ(g.at("sample_sm_clock_mhz").size(), g.at("samples_s").size());
  }
}

} // namespace
} // namespace gpurun::test
