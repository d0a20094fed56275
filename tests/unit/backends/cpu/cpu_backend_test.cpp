// The CPU backend end to end: NVRTC → PTX → emulator, through the Backend/Context interface.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

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

TEST(CpuBackend, TimerMeasuresTheLaunch) {
  EmuHarness h(read_file(source_dir() / "kernels/examples/scalar_add.cu"), Language::cuda);
  Buffer& buf = h.buffer(std::vector<float>(1024));
  auto timer = h.context().create_timer();
  timer->start();
  h.launch("scalar_add", Dim3{4, 1, 1}, Dim3{256, 1, 1}, 0, buf, 1024, 1.0f);
  timer->stop();
  h.context().synchronize();
  double ms = timer->elapsed_ms();
  EXPECT_GE(ms, 0.0);
  EXPECT_LT(ms, 10000.0);
  auto out = h.read<float>(buf);
  EXPECT_EQ(out[1023], 1.0f);
}

} // namespace
} // namespace gpurun::test
