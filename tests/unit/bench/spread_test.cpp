// bench/spread.cpp: the device list, model groups, the shared queue, and a suite spread over the
// CPU backend's virtual devices (real emulator contexts, one worker thread each), including one
// device that cannot make a context and one that is lost in the middle of a case.
#include "bench/spread.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "backends/cpu/backend.hpp"
#include "base/error.hpp"
#include "bench/shard.hpp"

namespace gpurun::bench {
namespace {

ExitCode code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return ExitCode::ok;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(ParseDeviceList, IndicesRangesAndAll) {
  EXPECT_EQ(parse_device_list("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_list("1", 3), (std::vector<int>{1}));
  EXPECT_EQ(parse_device_list("2,0", 3), (std::vector<int>{2, 0}));
  EXPECT_EQ(parse_device_list("0-2", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_list(" 0-1 , 3 ", 4), (std::vector<int>{0, 1, 3}));
}

TEST(ParseDeviceList, MalformedIsUsageNamingTheField) {
  for (const char* bad : {"", "x", "1,", ",1", "1-", "-1", "1--2", "0,0", "0-1,1", "2-1", "1.5"}) {
    EXPECT_EQ(code_of([&] { (void)parse_device_list(bad, 4); }), ExitCode::usage) << bad;
    EXPECT_NE(message_of([&] { (void)parse_device_list(bad, 4); }).find("--devices"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(message_of([] { (void)parse_device_list("0,0", 4); }).find("listed twice"),
            std::string::npos);
}

TEST(ParseDeviceList, AnIndexTheBackendLacksIsUnavailable) {
  EXPECT_EQ(code_of([] { (void)parse_device_list("0,4", 4); }), ExitCode::unavailable);
  EXPECT_NE(message_of([] { (void)parse_device_list("0-7", 2); }).find("has 2 device(s)"),
            std::string::npos);
  EXPECT_EQ(code_of([] { (void)parse_device_list("all", 0); }), ExitCode::unavailable);
}

DeviceProperties model(std::string name, std::string arch) {
  DeviceProperties p;
  p.name = std::move(name);
  p.arch = std::move(arch);
  return p;
}

TEST(GroupByModel, SameNameAndArchShareAGroupInFirstListedOrder) {
  const std::vector<DeviceProperties> devices{model("H200", "sm_90"), model("A100", "sm_80"),
                                              model("H200", "sm_90"), model("H200", "sm_100")};
  const auto groups = group_by_model(devices);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].model, "H200");
  EXPECT_EQ(groups[0].members, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(groups[1].model, "A100");
  EXPECT_EQ(groups[1].members, (std::vector<std::size_t>{1}));
  EXPECT_EQ(groups[2].arch, "sm_100");
}

TEST(DispatchOrder, LargestFirstTiesInSuiteOrder) {
  const std::vector<double> costs{1, 5, 3, 5, 0};
  EXPECT_EQ(dispatch_order(costs), (std::vector<std::size_t>{1, 3, 2, 0, 4}));
}

TEST(InterleaveShares, EveryCaseInExactlyOneShare) {
  const std::vector<double> costs{4, 1, 1, 1, 1, 3, 2};
  const auto shares = interleave_shares(costs, 3);
  ASSERT_EQ(shares.size(), 3u);
  std::multiset<std::size_t> seen;
  for (const auto& share : shares) {
    EXPECT_TRUE(std::is_sorted(share.begin(), share.end()));
    seen.insert(share.begin(), share.end());
  }
  EXPECT_EQ(seen, (std::multiset<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(CaseQueue, HandsOutInOrderThenEnds) {
  CaseQueue queue({2, 0, 1}, 1);
  EXPECT_EQ(queue.take(0), 2u);
  EXPECT_EQ(queue.take(0), 0u);
  EXPECT_EQ(queue.take(0), 1u);
  EXPECT_EQ(queue.take(0), std::nullopt);
}

TEST(CaseQueue, AWorkerWaitsWhileAnotherMayHandCasesBack) {
  CaseQueue queue({7}, 2);
  ASSERT_EQ(queue.take(0), 7u); // worker 0 holds case 7
  std::optional<std::size_t> got_by_1;
  std::thread worker1([&] { got_by_1 = queue.take(1); }); // empty queue, worker 0 busy: waits
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::size_t unfinished[] = {7};
  queue.leave(0, unfinished); // worker 0's device is lost
  worker1.join();
  EXPECT_EQ(got_by_1, 7u);
  EXPECT_EQ(queue.take(1), std::nullopt);
  EXPECT_TRUE(queue.drain().empty());
}

TEST(CaseQueue, WhatNobodyTookIsDrained) {
  CaseQueue queue({1}, 1);
  ASSERT_EQ(queue.take(0), 1u);
  const std::size_t unfinished[] = {1};
  queue.leave(0, unfinished);
  EXPECT_EQ(queue.drain(), (std::vector<std::size_t>{1}));
}

// ---- a suite over the CPU backend's virtual devices
// ----------------------------------------------

constexpr const char* k_kernel = R"(
.version 7.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1;
  @%p ret;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r5;
  ret;
}
)";

std::vector<BenchCase> fill_cases(std::size_t count) {
  std::vector<BenchCase> cases;
  for (std::size_t i = 0; i < count; ++i) {
    BenchCase c;
    c.case_name = "fill";
    const std::size_t n = 64 * (i + 1);
    c.name = "fill/N:" + std::to_string(n);
    c.point = {{"N", std::to_string(n)}};
    c.request.source = "fill.ptx";
    c.request.source_text = k_kernel;
    c.request.kernel = "fill";
    c.request.grid = Dim3{static_cast<std::uint32_t>((n + 63) / 64), 1, 1};
    c.request.block = Dim3{64, 1, 1};
    c.request.args = {"out=u32[" + std::to_string(n) + "]:0", "n=" + std::to_string(n)};
    c.bytes = 4.0 * static_cast<double>(n);
    cases.push_back(std::move(c));
  }
  return cases;
}

BenchOptions quick_options() {
  BenchOptions o;
  o.measure.rules.min_samples = 2;
  o.measure.rules.min_time_s = 0;
  o.measure.rules.timeout_s = 1;
  o.measure.rules.max_samples = 3;
  o.measure.launch_timeout_s = 30;
  return o;
}

/// The CPU backend with `count` virtual devices, made under GPURUN_TEST_FAIL_DEVICE=`failure`
/// (unset when empty).
class VirtualDevices {
public:
  VirtualDevices(std::size_t count, const char* failure = "") : m_backend(make_cpu_backend()) {
    if (*failure != '\0')
      setenv("GPURUN_TEST_FAIL_DEVICE", failure, 1);
    else
      unsetenv("GPURUN_TEST_FAIL_DEVICE");
    m_backend->set_device_count(count);
    unsetenv("GPURUN_TEST_FAIL_DEVICE");
    const auto devices = m_backend->devices();
    for (std::size_t i = 0; i < devices.size(); ++i)
      m_targets.push_back(Target{m_backend.get(), devices[i], static_cast<int>(i)});
  }
  [[nodiscard]] const std::vector<Target>& targets() const { return m_targets; }

private:
  std::unique_ptr<Backend> m_backend;
  std::vector<Target> m_targets;
};

std::vector<double> costs_of(const std::vector<BenchCase>& cases) {
  return estimate_costs(cases).costs;
}

TEST(RunBenchSpread, EveryCaseOnceEachNamingItsDevice) {
  const VirtualDevices cpu(3);
  const auto cases = fill_cases(7);
  const auto report =
      run_bench_spread("fills", cases, cpu.targets(), quick_options(), costs_of(cases));
  ASSERT_EQ(report.cases.size(), cases.size());
  ASSERT_EQ(report.devices.size(), 3u);
  std::set<int> used;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = report.cases[i];
    EXPECT_EQ(c.name, cases[i].name) << "suite order";
    EXPECT_TRUE(c.ok) << c.reason;
    EXPECT_GE(c.device_index, 0);
    EXPECT_LT(c.device_index, 3);
    EXPECT_EQ(c.device, "gpurun PTX emulator");
    EXPECT_GE(c.summary.count, 2u);
    used.insert(c.device_index);
  }
  for (const auto& d : report.devices) {
    EXPECT_FALSE(d.failed()) << d.error;
    counted += d.cases;
  }
  EXPECT_EQ(counted, cases.size()) << "each device counts the cases it measured";
  EXPECT_GE(used.size(), 2u) << "the queue spreads the cases over the devices";
  EXPECT_GT(report.wall_s, 0);
}

TEST(RunBenchSpread, ADeviceWithoutAContextIsReportedAndTheOthersRunEverything) {
  const VirtualDevices cpu(3, "1");
  const auto cases = fill_cases(5);
  const auto report =
      run_bench_spread("fills", cases, cpu.targets(), quick_options(), costs_of(cases));
  ASSERT_EQ(report.devices.size(), 3u);
  EXPECT_TRUE(report.devices[1].failed());
  EXPECT_NE(report.devices[1].error.find("GPURUN_TEST_FAIL_DEVICE"), std::string::npos);
  EXPECT_EQ(report.devices[1].cases, 0u);
  EXPECT_FALSE(report.devices[0].failed());
  EXPECT_FALSE(report.devices[2].failed());
  for (const auto& c : report.cases) {
    EXPECT_TRUE(c.ok) << c.name << ": " << c.reason;
    EXPECT_NE(c.device_index, 1);
  }
}

TEST(RunBenchSpread, TheCaseADeviceWasLostOnRunsOnAnother) {
  // Device 0 is lost after its first launch: the case it took first fails at its first sample,
  // and no new context can be made.
  const VirtualDevices cpu(2, "0@1");
  const auto cases = fill_cases(4);
  const auto report =
      run_bench_spread("fills", cases, cpu.targets(), quick_options(), costs_of(cases));
  EXPECT_TRUE(report.devices[0].failed());
  EXPECT_FALSE(report.devices[1].failed());
  for (const auto& c : report.cases) {
    EXPECT_TRUE(c.ok) << c.name << ": " << c.reason;
    EXPECT_EQ(c.device_index, 1) << c.name;
  }
}

TEST(RunBenchSpread, EveryDeviceLostBeforeMeasuringIsAnError) {
  const VirtualDevices cpu(1, "0");
  const auto cases = fill_cases(2);
  EXPECT_EQ(code_of([&] {
              (void)run_bench_spread("fills", cases, cpu.targets(), quick_options(),
                                     costs_of(cases));
            }),
            ExitCode::device);
}

TEST(RunBenchSpread, InterleaveKeepsFixedShares) {
  const VirtualDevices cpu(2);
  const auto cases = fill_cases(4);
  BenchOptions options = quick_options();
  options.interleave = true;
  const auto report = run_bench_spread("fills", cases, cpu.targets(), options, costs_of(cases));
  const auto shares = interleave_shares(costs_of(cases), 2);
  for (std::size_t k = 0; k < shares.size(); ++k)
    for (std::size_t i : shares[k]) {
      EXPECT_TRUE(report.cases[i].ok) << report.cases[i].reason;
      EXPECT_EQ(report.cases[i].device_index, static_cast<int>(k));
    }
}

} // namespace
} // namespace gpurun::bench
