// The roofline: roofs from a device's properties (an H200's figures by hand) and from counters
// (what Nsight Compute's roofline reads), and a launch placed under them.
#include "pipeline/roofline.hpp"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

namespace gpurun {
namespace {

Roofline simple_roofline() {
  Roofline r;
  r.source = "device";
  r.bandwidth_bytes_per_s = 1e12;                 // 1 TB/s
  r.compute = {{"fp32", 10e12}, {"fp64", 5e12}};  // ridges at 10 and 5 flop/byte
  return r;
}

TEST(Roofline, AMemoryBoundLaunchIsMeasuredAgainstTheBandwidthRoof) {
  // 1 flop per 4 bytes, 1 GB in 2 ms: 0.5 TB/s, half the bandwidth roof.
  const auto p = place(simple_roofline(), "fp32", 0.25e9, 1e9, 2e-3);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->intensity, 0.25);
  EXPECT_DOUBLE_EQ(p->ridge, 10);
  EXPECT_EQ(p->bound, "memory");
  EXPECT_DOUBLE_EQ(p->roof_flops_per_s, 0.25 * 1e12);
  EXPECT_DOUBLE_EQ(p->achieved_flops_per_s, 0.25e9 / 2e-3);
  EXPECT_DOUBLE_EQ(p->fraction, 0.5);
  EXPECT_EQ(p->precision, "fp32");
}

TEST(Roofline, AComputeBoundLaunchIsMeasuredAgainstItsPrecisionsPeak) {
  // fp64, 100 flop/byte: above the fp64 ridge (5); 2 TFLOP/s of 5.
  const auto p = place(simple_roofline(), "fp64", 2e12, 2e10, 1.0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->bound, "compute");
  EXPECT_DOUBLE_EQ(p->ridge, 5);
  EXPECT_DOUBLE_EQ(p->roof_flops_per_s, 5e12);
  EXPECT_DOUBLE_EQ(p->fraction, 0.4);
}

TEST(Roofline, NoFlopsIsMeasuredAsBandwidthAndNoBytesHasNoPoint) {
  const auto copy = place(simple_roofline(), "fp32", 0, 8e9, 0.01); // 0.8 TB/s
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->bound, "memory");
  EXPECT_DOUBLE_EQ(copy->fraction, 0.8);
  EXPECT_FALSE(place(simple_roofline(), "fp32", 1e9, 0, 1));
  EXPECT_FALSE(place(simple_roofline(), "fp32", 1e9, 1e9, 0));
  // An unknown precision falls back to the fp32 roof.
  EXPECT_EQ(place(simple_roofline(), "fp16", 1, 1, 1)->precision, "fp32");
}

TEST(Roofline, AnH200sRoofsFromItsProperties) {
  DeviceProperties h200;
  h200.arch = "sm_90";
  h200.multiprocessors = 132;
  h200.memory_bandwidth_gbs = 4800;
  const auto r = device_roofline(h200, 1980);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->source, "device");
  EXPECT_DOUBLE_EQ(r->bandwidth_bytes_per_s, 4.8e12);
  // 132 SMs × 128 FP32 lanes × 2 flops × 1.98 GHz = 66.9 TFLOP/s; FP64 half of it.
  EXPECT_DOUBLE_EQ(r->roof("fp32")->flops_per_s, 132.0 * 128 * 2 * 1.98e9);
  EXPECT_DOUBLE_EQ(r->roof("fp64")->flops_per_s, 132.0 * 64 * 2 * 1.98e9);
  EXPECT_EQ(r->compute.front().precision, "fp32");
}

TEST(Roofline, NoRoofsWithoutBandwidthClockOrKnownArchitecture) {
  DeviceProperties p;
  p.arch = "sm_90";
  p.multiprocessors = 132;
  EXPECT_FALSE(device_roofline(p, 1980)); // no bandwidth (the CPU backend)
  p.memory_bandwidth_gbs = 4800;
  EXPECT_FALSE(device_roofline(p, 0));
  p.arch = "gfx90a";
  EXPECT_FALSE(device_roofline(p, 1700));
  EXPECT_EQ(fma_lanes_per_sm("sm_80", "fp64"), 32);
  EXPECT_EQ(fma_lanes_per_sm("sm_86", "fp32"), 128);
  EXPECT_EQ(fma_lanes_per_sm("sm_999", "fp32"), 0);
  EXPECT_EQ(fma_lanes_per_sm("compute_90", "fp32"), 0);
}

TEST(Roofline, FromCountersAsNsightComputeReadsThem) {
  CounterReport c;
  std::map<std::string, double> v;
  for (const std::string& name : roofline_metrics())
    v[name] = 0;
  v["dram__bytes.sum"] = 3.0 * 4 * (1 << 24);                            // triad: 3 floats
  v["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] = 1 << 24;     // one FMA each
  v["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] = 0;
  v["smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"] = 10;          // less than fp32's
  v["gpu__time_duration.sum"] = 50'000;                                   // ns
  v["sm__cycles_elapsed.avg.per_second"] = 1.98e9;
  v["dram__cycles_elapsed.avg.per_second"] = 2.6e9;
  v["dram__bytes.sum.peak_sustained"] = 1800;                             // bytes per cycle
  v["sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"] = 132 * 128;
  v["sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained"] = 132 * 64;
  for (const auto& [name, value] : v)
    c.values.push_back({name, value, ""});
  const auto r = roofline_from_counters(c);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->roofline.source, "counters");
  EXPECT_DOUBLE_EQ(r->roofline.bandwidth_bytes_per_s, 1800 * 2.6e9);
  EXPECT_DOUBLE_EQ(r->roofline.roof("fp32")->flops_per_s, 2.0 * 132 * 128 * 1.98e9);
  EXPECT_EQ(r->roofline.roof("fp16"), nullptr) << "a zero peak is no roof";
  EXPECT_EQ(r->point.precision, "fp32");
  EXPECT_DOUBLE_EQ(r->point.flops, 2.0 * (1 << 24));
  EXPECT_DOUBLE_EQ(r->point.seconds, 50e-6);
  EXPECT_EQ(r->point.source, "counters");
  // HFMA2 moving constants counts as fp16: fp16 only wins without fp32 and fp64 flops.
  for (auto& m : c.values)
    if (m.name == "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum")
      m.value = 8.0 * (1 << 24);
  EXPECT_EQ(roofline_from_counters(c)->point.precision, "fp32");
  for (auto& m : c.values)
    if (m.name == "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")
      m.value = 0;
  for (auto& m : c.values) {
    if (m.name == "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum")
      m.value = 0;
    if (m.name == "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained")
      m.value = 132 * 128;
  }
  EXPECT_EQ(roofline_from_counters(c)->point.precision, "fp16");
  for (auto& m : c.values)
    if (m.name == "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")
      m.value = 1 << 24;
  // A benchmark's median replaces the counted duration.
  EXPECT_DOUBLE_EQ(roofline_from_counters(c, 40e-6)->point.seconds, 40e-6);
  // Without one of the preset's metrics there is no roofline.
  c.values.pop_back();
  EXPECT_FALSE(roofline_from_counters(c));
}

TEST(Roofline, JsonNamesEveryFigure) {
  const auto p = *place(simple_roofline(), "fp32", 0.25e9, 1e9, 2e-3);
  const auto j = roofline_point_json(p);
  EXPECT_EQ(j.at("bound"), "memory");
  EXPECT_DOUBLE_EQ(j.at("fraction").get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j.at("intensity").get<double>(), 0.25);
  const auto roofs = roofline_json(simple_roofline());
  EXPECT_DOUBLE_EQ(roofs.at("compute_flops_per_s").at("fp64").get<double>(), 5e12);
  EXPECT_EQ(roofs.at("source"), "device");
}

} // namespace
} // namespace gpurun
