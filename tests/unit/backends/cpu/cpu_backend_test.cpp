// The CPU backend end to end: NVRTC → PTX → emulator, through the Backend/Context interface.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "support/test_support.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CpuBackend, DescribesItselfAsAnSm90Emulator) {
  auto backend = make_cpu_backend();
  EXPECT_EQ(backend->name(), "cpu");
  EXPECT_TRUE(backend->probe().available);
  EXPECT_TRUE(backend->probe().reason.empty());
  ASSERT_EQ(backend->devices().size(), 1u);
  const auto& p = backend->devices()[0]->properties();
  EXPECT_EQ(p.name, "gpurun PTX emulator");
  EXPECT_EQ(p.vendor, "gpurun");
  EXPECT_EQ(p.arch, "sm_90");
  EXPECT_EQ(p.compute_major, 9);
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_EQ(p.max_block.z, 64u);
  EXPECT_EQ(p.max_shared_per_block_optin, 227u * 1024);
  EXPECT_GT(p.total_memory, 0u);
  auto langs = backend->languages();
  EXPECT_EQ(langs.size(), 3u);
}

// What `gpurun devices` and `gpurun compile` ask through the Backend interface.
TEST(CpuBackend, AnswersTheCompilerQuestions) {
  auto backend = make_cpu_backend();
  std::vector<std::string> names;
  for (const auto& c : backend->compilers())
    names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvrtc", "clang", "nvcc"}));
  EXPECT_TRUE(backend->chosen_compiler(Language::cuda, CompileOptions{}).has_value());
  EXPECT_FALSE(backend->chosen_compiler(Language::ptx, CompileOptions{}).has_value());
  EXPECT_TRUE(backend->compiles_offline_for("sm_90"));
  EXPECT_TRUE(backend->compiles_offline_for("compute_80"));
  EXPECT_FALSE(backend->compiles_offline_for("gfx90a"));
  EXPECT_FALSE(backend->compiles_offline_for("sm_"));
  // A PTX source has no compiler report of its resources: the loaded module is the answer.
  const KernelSource ptx{".version 8.0\n.target sm_90\n.address_size 64\n", "k.ptx", Language::ptx};
  EXPECT_FALSE(backend->compiled_resources(ptx, CompileOptions{}, CompileResult{}).has_value());
}

TEST(CpuBackend, MakesTheDeviceCountItIsAskedFor) {
  auto backend = make_cpu_backend();
  backend->set_device_count(3);
  EXPECT_EQ(backend->devices().size(), 3u);
  for (const std::size_t bad : {std::size_t{0}, k_max_cpu_devices + 1}) {
    try {
      backend->set_device_count(bad);
      ADD_FAILURE() << bad << " devices were made";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      EXPECT_EQ(std::string(e.what()),
                fmt::format("{}: the cpu backend makes 1 to 64 virtual devices", bad));
    }
  }
}

TEST(CpuBackend, ScalarAddExampleRunsEndToEnd) {
  EmuHarness h(read_file(source_dir() / "kernels/examples/scalar_add.cu"), Language::cuda);
  std::vector<float> v(20);
  for (int i = 0; i < 20; ++i)
    v[i] = static_cast<float>(i);
  Buffer& buf = h.buffer(v);
  h.run("scalar_add", Dim3{1, 1, 1}, Dim3{32, 1, 1}, buf, 20, 20.0f);
  auto out = h.read<float>(buf);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(out[i], static_cast<float>(i) + 20.0f) << i;
}

TEST(CpuBackend, PtxSourceIsTakenAsIs) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry fill(.param .u64 p, .param .u32 v)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [v];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  add.s32 %r3, %r1, %r2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";
  EmuHarness h(ptx);
  EXPECT_EQ(h.module().kernel_names(), std::vector<std::string>{"fill"});
  Buffer& buf = h.buffer(std::vector<std::uint32_t>(40, 0));
  h.run("fill", Dim3{1, 1, 1}, Dim3{40, 1, 1}, buf, 100u);
  auto out = h.read<std::uint32_t>(buf);
  for (std::uint32_t i = 0; i < 40; ++i)
    EXPECT_EQ(out[i], 100 + i);
}

TEST(CpuBackend, UnknownKernelIsAUsageError) {
  EmuHarness h(read_file(source_dir() / "kernels/examples/scalar_add.cu"), Language::cuda);
  try {
    (void)h.module().function("nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("scalar_add"), std::string::npos);
  }
}

TEST(CpuBackend, ArgumentSizeMismatchIsRejected) {
  EmuHarness h(read_file(source_dir() / "kernels/examples/scalar_add.cu"), Language::cuda);
  Buffer& buf = h.buffer(std::vector<float>(4));
  EXPECT_THROW(h.launch("scalar_add", Dim3{1, 1, 1}, Dim3{4, 1, 1}, 0, buf, std::int64_t{4}, 1.0f),
               Error);
}

// Every thread adds 0 + 1 + … + (n - 1): the work grows with n, and the sum shows it was done.
constexpr const char* k_spin_ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
$L_loop:
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra $L_done;
  add.u32 %r3, %r3, %r2;
  add.u32 %r2, %r2, 1;
  bra.uni $L_loop;
$L_done:
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

// The timer times the kernel, not the enqueue: launches are asynchronous, so a timer that stopped
// the clock when stop() is called (or never started it) would miss the work. A launch that does
// much more work must measure longer, and no launch can measure longer than the host saw.
TEST(CpuBackend, TimerMeasuresTheLaunch) {
  EmuHarness h(k_spin_ptx);
  Buffer& buf = h.buffer(std::vector<std::uint32_t>(64, 0));
  using Clock = std::chrono::steady_clock;
  auto timed = [&](std::uint32_t n, double& host_ms) {
    auto timer = h.context().create_timer();
    const auto host_start = Clock::now();
    timer->start();
    h.launch("spin", Dim3{1, 1, 1}, Dim3{64, 1, 1}, 0, buf, n);
    timer->stop();
    const double ms = timer->elapsed_ms();
    h.context().synchronize();
    host_ms = std::chrono::duration<double, std::milli>(Clock::now() - host_start).count();
    return ms;
  };
  // The tiny launch's best of five, so that one unlucky wake-up on a busy machine does not count.
  double tiny = 1e9;
  for (int i = 0; i < 5; ++i) {
    double host_ms = 0;
    const double ms = timed(1, host_ms);
    EXPECT_GT(ms, 0.0);
    EXPECT_LE(ms, host_ms);
    tiny = std::min(tiny, ms);
  }
  EXPECT_EQ(h.read<std::uint32_t>(buf)[63], 0u);
  const std::uint32_t n = 1'000'000; // far longer than a tiny launch on a busy machine
  double big_host = 0;
  const double big = timed(n, big_host);
  EXPECT_EQ(h.read<std::uint32_t>(buf)[63],
            static_cast<std::uint32_t>(std::uint64_t{n} * (n - 1) / 2));
  EXPECT_LE(big, big_host);
  // 64 threads × 200,000 iterations take milliseconds, the tiny launch far less.
  EXPECT_GT(big, 1.0);
  EXPECT_GT(big, 5 * tiny);
  // elapsed_ms() waited for the launch, so nearly all of the host's time was the kernel's.
  EXPECT_GT(big, 0.5 * big_host);
}

// memset is ordered after the launch before it: the long launch's last store must not land on
// top of the fill.
TEST(CpuBackend, MemsetWaitsForTheLaunchBeforeIt) {
  EmuHarness h(k_spin_ptx);
  Buffer& buf = h.buffer(std::vector<std::uint32_t>(64, 0));
  h.launch("spin", Dim3{1, 1, 1}, Dim3{64, 1, 1}, 0, buf, std::uint32_t{100'000});
  h.context().memset(buf, 0xab);
  for (const std::uint32_t word : h.read<std::uint32_t>(buf))
    ASSERT_EQ(word, 0xababababu);
}

} // namespace
} // namespace gpurun::test
