// The CUDA device's clock monitor (NVML) on a real device: clocks, event reasons, power and
// energy. Skips where there is no CUDA device or no libnvidia-ml.so.1.
#include <chrono>
#include <iostream>
#include <thread>

#include "gpu/cuda_test_support.hpp"

namespace gpurun::test {
namespace {

// Every thread spins for `ns` nanoseconds of the global timer doing arithmetic, so the whole GPU
// draws power for that long.
constexpr const char* k_busy_kernel = R"(
extern "C" __global__ void busy(float* out, unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  float x = threadIdx.x;
  do {
    for (int i = 0; i < 256; ++i)
      x = x * 0.999f + 1.0f;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
  if (x == 0.0f)
    out[0] = x;
}
)";

class ClockMonitorGpuTest : public CudaGpuTest {
protected:
  void SetUp() override {
    CudaGpuTest::SetUp();
    if (IsSkipped())
      return;
    std::string why_not;
    m_monitor = m_device->clock_monitor(why_not);
    if (m_monitor == nullptr && why_not.find("libnvidia-ml.so.1 not found") == 0)
      GTEST_SKIP() << why_not;
    // Any other reason (a bus id NVML does not know, a failed init) is a fault on a GPU machine.
    ASSERT_NE(m_monitor, nullptr) << why_not;
  }
  std::unique_ptr<ClockMonitor> m_monitor;
};

TEST_F(ClockMonitorGpuTest, ReadsTheSmClockAndTheDefaultClock) {
  const double default_mhz = m_monitor->default_sm_clock_mhz();
  const ClockReading reading = m_monitor->read();
  std::cout << "[ clocks   ] SM " << reading.sm_clock_mhz << " MHz, default " << default_mhz
            << " MHz, reasons " << m_monitor->describe(reading.throttle_reasons) << "\n";
  EXPECT_GT(default_mhz, 100.0);
  EXPECT_GT(reading.sm_clock_mhz, 0.0);
  EXPECT_FALSE(m_monitor->describe(reading.throttle_reasons).empty());
}

TEST_F(ClockMonitorGpuTest, EnergyGrowsOverABusyKernel) {
  auto module = build(k_busy_kernel);
  auto& fn = module->function("busy");
  auto out = context().allocate(sizeof(float));
  const unsigned long long ns = 200'000'000;
  const auto blocks = static_cast<unsigned>(properties().multiprocessors * 4);

  const auto energy_before = m_monitor->energy_j();
  context().launch(fn, LaunchConfig{{blocks, 1, 1}, {256, 1, 1}, 0}, pack_args(*out, ns));
  // Read while the kernel runs: the clock is up and the board draws power.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const ClockReading busy = m_monitor->read();
  const auto power = m_monitor->power_w();
  context().synchronize();
  const auto energy_after = m_monitor->energy_j();

  std::cout << "[ busy     ] SM " << busy.sm_clock_mhz << " MHz ("
            << m_monitor->describe(busy.throttle_reasons) << "), power "
            << (power ? std::to_string(*power) + " W" : "not reported") << ", energy "
            << (energy_before && energy_after
                    ? std::to_string(*energy_after - *energy_before) + " J"
                    : "not reported")
            << "\n";
  EXPECT_GT(busy.sm_clock_mhz, 0.0);
  EXPECT_EQ(busy.throttle_reasons & 0x1, 0u) << "gpu_idle while a kernel runs";
  if (power) {
    EXPECT_GT(*power, 0.0);
  }
  if (energy_before && energy_after) {
    EXPECT_GT(*energy_after, *energy_before);
  }
}

} // namespace
} // namespace gpurun::test
