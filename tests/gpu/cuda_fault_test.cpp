// Faults, the watchdog and device printf. Each runs in a child process (a "threadsafe" death test
// re-executes this binary): a fault poisons the CUDA context and a timed-out kernel keeps running,
// and the parent must stay usable. The children exit the way the gpurun binary does.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "gpu/cuda_test_support.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

using CudaFaultDeathTest = CudaGpuTest;

TEST_F(CudaFaultDeathTest, IllegalAddressNamesKernelAndCUresult) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto child = [this] {
    try {
      auto module = build("extern \"C\" __global__ void oob(int* p) { p[threadIdx.x] = 1; }");
      context().launch(module->function("oob"), LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0},
                       pack_args(DevicePtr{0}));
      context().synchronize(10.0);
      std::fprintf(stderr, "no fault reported\n");
      std::_Exit(0);
    } catch (const BackendError& e) {
      std::fprintf(stderr, "%s|native=%s|backend=%s\n", e.what(), e.native_name().c_str(),
                   e.backend().c_str());
      std::_Exit(e.exit_code());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "unexpected error type: %s\n", e.what());
      std::_Exit(99);
    }
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(static_cast<int>(ExitCode::device)),
              "kernel 'oob' faulted: CUDA_ERROR_ILLEGAL_ADDRESS \\(an illegal memory access was "
              "encountered\\)\\|native=CUDA_ERROR_ILLEGAL_ADDRESS\\|backend=cuda");
}

TEST_F(CudaFaultDeathTest, SpinningKernelTimesOutAndProcessExitsPromptly) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto child = [this] {
    // Should exit() hang on the still-running kernel, SIGALRM ends the child and the test fails
    // with "killed by signal" instead of hanging the run.
    alarm(60);
    using clock = std::chrono::steady_clock;
    double waited = -1;
    const int code = [&] {
      try {
        auto module = build("extern \"C\" __global__ void spin(volatile int* flag) {\n"
                            "  while (*flag == 0) {}\n"
                            "}\n");
        auto flag = context().allocate(sizeof(int));
        std::vector<int> zero{0};
        context().copy_to_device(*flag, bytes_of(zero));
        context().launch(module->function("spin"), LaunchConfig{{1, 1, 1}, {1, 1, 1}, 0},
                         pack_args(*flag));
        const auto start = clock::now();
        try {
          context().synchronize(1.0);
        } catch (...) {
          waited = std::chrono::duration<double>(clock::now() - start).count();
          throw;
        }
        std::fprintf(stderr, "spin finished?\n");
        return 0;
      } catch (const Error& e) {
        std::fprintf(stderr, "%s|waited=%s\n", e.what(), waited < 3.0 ? "ok" : "too long");
        return e.exit_code();
      }
    }();
    // As gpurun does after a timeout: the context goes away without waiting, then exit.
    m_context.reset();
    std::exit(code);
  };
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(static_cast<int>(ExitCode::timeout)),
              "kernel 'spin' did not finish within 1 s \\(--timeout\\)\\|waited=ok");
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(total, 30.0) << "the child took " << total << " s to time out and exit";
}

// Device printf reaches stdout after the launch line the CLI printed before launching: run the
// real binary (in a death-test child the driver's printf buffer and a redirected stdout do not
// meet reliably).
TEST_F(CudaFaultDeathTest, DevicePrintfFollowsTheLaunchLine) {
  auto r = run_gpurun("kernels/examples/print_threads.json --backend cuda --no-cache");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto launch = r.out.find("print_threads<<<(2,2,1),(4,4,2)>>> on cuda:0");
  const auto first = r.out.find("block_idx: [");
  ASSERT_NE(launch, std::string::npos) << r.out;
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_LT(launch, first);
  std::size_t lines = 0;
  for (auto p = first; p != std::string::npos; p = r.out.find("block_idx: [", p + 1))
    ++lines;
  EXPECT_EQ(lines, 128u);
}

} // namespace
} // namespace gpurun::test
