// GPU tests of what `gpurun bench` stands on: the stream hold, memset, and a batch sample next to
// a raw cuLaunchKernel loop (the figures are printed for scripts/gpu-check.sh; speed is measured
// there, not asserted here).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "backends/cuda/api.hpp"
#include "backends/cuda/module.hpp"
#include "backends/registry.hpp"
#include "gpu/cuda_test_support.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/prepare.hpp"
#include "pipeline/target.hpp"

namespace gpurun::test {
namespace {

const char* k_empty = R"(extern "C" __global__ void empty_kernel() {})";

class BenchGpuTest : public CudaGpuTest {};

// The start event is recorded behind the hold: a timer started before the hold sees the host's
// sleep, one started after it does not.
TEST_F(BenchGpuTest, HoldKeepsTheStreamUntilReleased) {
  auto module = build(k_empty);
  Function& fn = module->function("empty_kernel");
  const LaunchConfig config{Dim3{1, 1, 1}, Dim3{32, 1, 1}, 0};
  auto outer = context().create_timer();
  auto inner = context().create_timer();
  outer->start();
  auto hold = context().hold_stream(10);
  ASSERT_NE(hold, nullptr) << "the CUDA backend holds its stream";
  inner->start();
  context().launch(fn, config, ArgPack{});
  inner->stop();
  outer->stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  hold->release();
  context().synchronize(5.0);
  EXPECT_GE(outer->elapsed_ms(), 90.0) << "the stream waited for the release";
  EXPECT_LT(inner->elapsed_ms(), 5.0) << "the launch ran after the release";
}

// A hold that is never released ends at its own limit instead of hanging the device.
TEST_F(BenchGpuTest, HoldEndsAtItsLimit) {
  auto hold = context().hold_stream(0.2);
  ASSERT_NE(hold, nullptr);
  const auto start = std::chrono::steady_clock::now();
  context().synchronize(10.0);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 0.15);
  EXPECT_LT(waited, 5.0);
}

// Per-launch time of N back-to-back launches of an empty kernel: the pipeline's batch sample and
// the same loop written directly against the driver. Printed as "BATCH_VS_RAW batch_us raw_us".
TEST_F(BenchGpuTest, BatchSampleNextToARawLaunchLoop) {
  auto module = build(k_empty);
  auto& fn = dynamic_cast<cuda::CudaFunction&>(module->function("empty_kernel"));
  using namespace cuda; // the driver's own names: CUstream, CUDA_SUCCESS, …
  const auto& api = driver().api;
  constexpr int launches = 5000;

  CUstream stream = nullptr;
  ASSERT_EQ(api.stream_create(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUevent start = nullptr;
  CUevent stop = nullptr;
  ASSERT_EQ(api.event_create(&start, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  ASSERT_EQ(api.event_create(&stop, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  std::vector<double> raw;
  for (int rep = 0; rep < 21; ++rep) {
    ASSERT_EQ(api.event_record(start, stream), CUDA_SUCCESS);
    // Nothing but the launch in the loop: the results are checked after it.
    CUresult launched = CUDA_SUCCESS;
    for (int i = 0; i < launches; ++i)
      launched = static_cast<CUresult>(launched | api.launch_kernel(fn.handle(), 1, 1, 1, 32, 1, 1,
                                                                    0, stream, nullptr, nullptr));
    ASSERT_EQ(launched, CUDA_SUCCESS);
    ASSERT_EQ(api.event_record(stop, stream), CUDA_SUCCESS);
    ASSERT_EQ(api.event_synchronize(stop), CUDA_SUCCESS);
    float ms = 0;
    ASSERT_EQ(api.event_elapsed_time(&ms, start, stop), CUDA_SUCCESS);
    raw.push_back(ms * 1e3 / launches);
  }
  (void)api.event_destroy(start);
  (void)api.event_destroy(stop);
  (void)api.stream_destroy(stream);

  RunRequest request;
  request.source = "empty.cu";
  request.source_text = k_empty;
  request.grid = Dim3{1, 1, 1};
  request.block = Dim3{32, 1, 1};
  request.use_cache = false;
  BackendRegistry registry;
  const Target target = select_target(registry, {"cuda", 0, Language::cuda});
  PreparedRun run = prepare(request, target);
  auto timer = run.context->create_timer();
  std::vector<double> batch;
  for (int rep = 0; rep < 21; ++rep)
    batch.push_back(1e6 * execute_sample(run, *timer, {nullptr, false, launches, 10.0}));
  // Medians of 21, as the bench reports medians.
  std::nth_element(raw.begin(), raw.begin() + 10, raw.end());
  std::nth_element(batch.begin(), batch.begin() + 10, batch.end());
  std::printf("BATCH_VS_RAW %.4f %.4f\n", batch[10], raw[10]);
  EXPECT_GT(batch[10], 0);
  EXPECT_GT(raw[10], 0);
}

} // namespace
} // namespace gpurun::test
