// The CUDA backend on a real device. Every test skips (GTEST_SKIP) where no CUDA device is
// present, so this binary runs anywhere.
#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>

#include "gpu/cuda_test_support.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

using CudaDeviceTest = CudaGpuTest;

TEST_F(CudaDeviceTest, PropertiesAreFilledFromTheDriver) {
  const auto& p = properties();
  EXPECT_FALSE(p.name.empty());
  EXPECT_EQ(p.vendor, "NVIDIA");
  EXPECT_GE(p.compute_major, 7);
  EXPECT_EQ(p.arch, "sm_" + std::to_string(p.compute_major) + std::to_string(p.compute_minor));
  EXPECT_GT(p.multiprocessors, 0);
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_GT(p.total_memory, 1ull << 30);
  EXPECT_EQ(p.max_threads_per_block, 1024u);
  EXPECT_EQ(p.max_block.x, 1024u);
  EXPECT_EQ(p.max_block.z, 64u);
  EXPECT_EQ(p.max_grid.x, 2147483647u);
  EXPECT_EQ(p.max_shared_per_block, 48u * 1024);
  EXPECT_GE(p.max_shared_per_block_optin, p.max_shared_per_block);
  EXPECT_GT(p.l2_bytes, 0u);
  if (p.memory_clock_khz > 0 && p.memory_bus_bits > 0) {
    EXPECT_GT(p.memory_bandwidth_gbs, 100.0);
  }
  EXPECT_NE(p.driver_version.find('.'), std::string::npos) << p.driver_version;
  std::cout << "[ device   ] " << p.name << " " << p.arch << ", " << p.multiprocessors << " SMs, "
            << (p.total_memory >> 20) << " MiB, L2 " << (p.l2_bytes >> 10) << " KiB, opt-in shared "
            << p.max_shared_per_block_optin << " B, " << p.memory_bandwidth_gbs << " GB/s, driver "
            << p.driver_version << "\n";
}

using CudaRunTest = CudaGpuTest;

// The bundled example, as a user would run it: compiled for the device's own sm_XX (a cubin).
TEST_F(CudaRunTest, ScalarAddFromExamplesCompilesLoadsAndRuns) {
  const auto path = source_dir() / "kernels" / "examples" / "scalar_add.cu";
  const auto compiled =
      context().compile(KernelSource{read_file(path), path, Language::cuda}, CompileOptions{});
  ASSERT_TRUE(compiled.ok) << compiled.log;
  EXPECT_EQ(compiled.binary_format, "cubin");
  EXPECT_EQ(compiled.target, properties().arch);
  auto module = context().load(compiled);

  auto names = module->kernel_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "scalar_add"), names.end());
  auto& fn = module->function("scalar_add");
  EXPECT_EQ(fn.name(), "scalar_add");
  ASSERT_EQ(fn.params().size(), 3u);
  EXPECT_EQ(fn.params()[0].size, 8u);
  EXPECT_EQ(fn.params()[1].size, 4u);
  EXPECT_EQ(fn.params()[1].offset, 8u);
  EXPECT_EQ(fn.params()[2].size, 4u);
  const auto attributes = fn.attributes();
  EXPECT_GT(attributes.registers, 0);
  EXPECT_GE(attributes.max_threads_per_block, 256);

  const int n = 1000;
  std::vector<float> host(n);
  std::iota(host.begin(), host.end(), 0.0f);
  auto buffer = context().allocate(n * sizeof(float));
  context().copy_to_device(*buffer, bytes_of(host));
  context().launch(fn, LaunchConfig{{(n + 255) / 256, 1, 1}, {256, 1, 1}, 0},
                   pack_args(*buffer, n, 2.5f));
  context().synchronize(5.0);
  std::vector<float> out(n, -1.0f);
  context().copy_to_host(writable_bytes_of(out), *buffer);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], static_cast<float>(i) + 2.5f) << "element " << i;
}

TEST_F(CudaRunTest, PtxTargetIsJittedByTheDriver) {
  CompileOptions options;
  options.arch = "compute_" + std::to_string(properties().compute_major) +
                 std::to_string(properties().compute_minor);
  const auto compiled = context().compile(
      KernelSource{"extern \"C\" __global__ void twice(int* v) { v[threadIdx.x] *= 2; }",
                   {},
                   Language::cuda},
      options);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  EXPECT_EQ(compiled.binary_format, "ptx");
  auto module = context().load(compiled);
  EXPECT_EQ(module->kernel_names(), std::vector<std::string>{"twice"});
  std::vector<int> host{1, 2, 3, 4};
  auto buffer = context().allocate(host.size() * sizeof(int));
  context().copy_to_device(*buffer, bytes_of(host));
  context().launch(module->function("twice"), LaunchConfig{{1, 1, 1}, {4, 1, 1}, 0},
                   pack_args(*buffer));
  context().synchronize();
  context().copy_to_host(writable_bytes_of(host), *buffer);
  EXPECT_EQ(host, (std::vector<int>{2, 4, 6, 8}));
}

TEST_F(CudaRunTest, PtxSourcePassesThroughAndLoads) {
  const auto compiled = context().compile(KernelSource{R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry store7(.param .u64 out)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
)",
                                                       "store7.ptx", Language::ptx},
                                          {});
  ASSERT_TRUE(compiled.ok);
  EXPECT_EQ(compiled.binary_format, "ptx");
  auto module = context().load(compiled);
  auto& fn = module->function("store7");
  ASSERT_EQ(fn.params().size(), 1u);
  auto buffer = context().allocate(sizeof(int));
  context().launch(fn, LaunchConfig{{1, 1, 1}, {1, 1, 1}, 0}, pack_args(*buffer));
  context().synchronize(5.0);
  std::vector<int> out(1);
  context().copy_to_host(writable_bytes_of(out), *buffer);
  EXPECT_EQ(out[0], 7);
}

TEST_F(CudaRunTest, TemplateKernelByLoweredName) {
  CompileOptions options;
  options.name_expressions = {"saxpy<float>"};
  const auto compiled = context().compile(KernelSource{R"(template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})",
                                                       {},
                                                       Language::cuda},
                                          options);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  const auto lowered = compiled.lowered_names.at("saxpy<float>");
  auto module = context().load(compiled);
  auto& fn = module->function(lowered);
  EXPECT_EQ(fn.params().size(), 4u);
  const int n = 64;
  std::vector<float> x(n, 2.0f), y(n, 1.0f);
  auto dx = context().allocate(n * sizeof(float));
  auto dy = context().allocate(n * sizeof(float));
  context().copy_to_device(*dx, bytes_of(x));
  context().copy_to_device(*dy, bytes_of(y));
  context().launch(fn, LaunchConfig{{1, 1, 1}, {64, 1, 1}, 0}, pack_args(3.0f, *dx, *dy, n));
  context().synchronize(5.0);
  context().copy_to_host(writable_bytes_of(y), *dy);
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 7.0f; }));
}

TEST_F(CudaRunTest, UnknownKernelIsUsageErrorListingKernels) {
  auto module = build("extern \"C\" __global__ void alpha() {}\n"
                      "extern \"C\" __global__ void beta(int) {}\n");
  try {
    (void)module->function("gamma");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "kernel 'gamma' not found in module (kernels: alpha, beta)");
  }
}

TEST_F(CudaRunTest, WrongArgumentCountIsUsageError) {
  auto module = build("extern \"C\" __global__ void k(int* p, int n) {}");
  auto buffer = context().allocate(16);
  try {
    context().launch(module->function("k"), LaunchConfig{}, pack_args(*buffer));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("takes 2 parameters, 1 given"), std::string::npos)
        << e.what();
  }
}

TEST_F(CudaRunTest, TimerMeasuresAKernel) {
  auto module = build(R"(extern "C" __global__ void busy(long long cycles, int* sink) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  if (threadIdx.x == 0) *sink = 1;
})");
  auto sink = context().allocate(sizeof(int));
  auto timer = context().create_timer();
  timer->start();
  // ~10 ms at any plausible clock.
  context().launch(
      module->function("busy"), LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0},
      pack_args(static_cast<long long>(properties().clock_khz > 0 ? properties().clock_khz * 10LL
                                                                  : 20'000'000LL),
                *sink));
  timer->stop();
  const double ms = timer->elapsed_ms();
  EXPECT_GT(ms, 1.0);
  EXPECT_LT(ms, 5000.0);
  context().synchronize(5.0);
}

TEST_F(CudaRunTest, GlobalAndConstantSymbolsRoundTrip) {
  auto module = build(R"(__device__ int counter;
__constant__ float scale;
extern "C" __global__ void k(float* out) {
  out[threadIdx.x] = threadIdx.x * scale;
  atomicAdd(&counter, 1);
})");
  const auto counter = module->global("counter");
  const auto scale = module->global("scale");
  ASSERT_TRUE(counter.has_value());
  ASSERT_TRUE(scale.has_value());
  EXPECT_EQ(counter->size, sizeof(int));
  EXPECT_EQ(scale->size, sizeof(float));
  EXPECT_FALSE(module->global("no_such_variable").has_value());

  std::vector<int> start{100};
  std::vector<float> factor{3.0f};
  context().copy_to_symbol(*counter, bytes_of(start));
  context().copy_to_symbol(*scale, bytes_of(factor));
  auto out = context().allocate(64 * sizeof(float));
  context().launch(module->function("k"), LaunchConfig{{1, 1, 1}, {64, 1, 1}, 0}, pack_args(*out));
  context().synchronize(5.0);
  std::vector<int> count(1);
  context().copy_from_symbol(writable_bytes_of(count), *counter);
  EXPECT_EQ(count[0], 164);
  std::vector<float> values(64);
  context().copy_to_host(writable_bytes_of(values), *out);
  EXPECT_EQ(values[5], 15.0f);

  std::vector<double> too_big{1.0};
  EXPECT_THROW(context().copy_to_symbol(*scale, bytes_of(too_big)), Error);
}

TEST_F(CudaRunTest, DynamicSharedMemoryBeyond48KB) {
  constexpr std::size_t bytes = 64 * 1024;
  if (properties().max_shared_per_block_optin < bytes)
    GTEST_SKIP() << "device opt-in shared memory is " << properties().max_shared_per_block_optin;
  auto module = build(R"(extern "C" __global__ void fill_and_sum(int words, unsigned* out) {
  extern __shared__ unsigned s[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (int i = 0; i < words; ++i) sum += s[i];
    *out = sum;
  }
})");
  const int words = static_cast<int>(bytes / sizeof(unsigned));
  auto out = context().allocate(sizeof(unsigned));
  context().launch(module->function("fill_and_sum"), LaunchConfig{{1, 1, 1}, {256, 1, 1}, bytes},
                   pack_args(words, *out));
  context().synchronize(5.0);
  std::vector<unsigned> sum(1);
  context().copy_to_host(writable_bytes_of(sum), *out);
  EXPECT_EQ(sum[0], static_cast<unsigned>(words) * (words - 1) / 2);
}

TEST_F(CudaRunTest, DeviceToDeviceCopy) {
  std::vector<std::uint8_t> host(4096);
  std::iota(host.begin(), host.end(), std::uint8_t{0});
  auto a = context().allocate(host.size());
  auto b = context().allocate(host.size());
  context().copy_to_device(*a, bytes_of(host));
  context().copy_device(*b, *a);
  std::vector<std::uint8_t> out(host.size());
  context().copy_to_host(writable_bytes_of(out), *b);
  EXPECT_EQ(out, host);
}

TEST_F(CudaRunTest, MemsetIsOrderedWithTheCopiesAroundIt) {
  std::vector<std::uint8_t> host(1 << 20, 7);
  auto a = context().allocate(host.size());
  context().copy_to_device(*a, bytes_of(host));
  context().memset(*a, 0xab);
  std::vector<std::uint8_t> out(host.size());
  context().copy_to_host(writable_bytes_of(out), *a);
  EXPECT_EQ(std::count(out.begin(), out.end(), std::uint8_t{0xab}),
            static_cast<std::ptrdiff_t>(out.size()));
}

TEST_F(CudaRunTest, OutOfMemoryNamesTheSize) {
  const std::size_t huge = static_cast<std::size_t>(properties().total_memory) * 2;
  try {
    (void)context().allocate(huge);
    FAIL() << "expected an allocation failure";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(e.native_name(), "CUDA_ERROR_OUT_OF_MEMORY") << e.what();
    EXPECT_NE(std::string(e.what()).find("allocating " + std::to_string(huge) + " bytes"),
              std::string::npos)
        << e.what();
  }
  // The context stays usable after a failed allocation.
  auto small = context().allocate(1024);
  EXPECT_NE(small->address(), 0u);
}

TEST_F(CudaRunTest, CompileErrorIsAValue) {
  const auto r = context().compile(
      KernelSource{"extern \"C\" __global__ void k() { nope(); }", "bad.cu", Language::cuda}, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("bad.cu(1)"), std::string::npos) << r.log;
}

TEST_F(CudaRunTest, CompilerIdNamesNvrtcAndTarget) {
  const auto id = context().compiler_id(CompileOptions{});
  EXPECT_EQ(id.rfind("nvrtc " + nvrtc::probe().version + " ", 0), 0u) << id;
  EXPECT_NE(id.find(std::to_string(properties().compute_major)), std::string::npos) << id;
}

} // namespace
} // namespace gpurun::test
