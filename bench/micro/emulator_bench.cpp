// Throughput of the CPU backend on three typical kernels (NVRTC output from tests/data/ptx):
// vector add (memory-bound, full warps), tiled matmul (shared memory + barriers, FMA loop) and a
// shared-memory tree reduction (divergent tails). The interpreter reports lane-instructions per
// second, without checks and under each sanitizer (the second argument: the slowdown of each
// tool); the third argument runs the compiled engine instead (docs/compiled-engine.md), whose
// speed-up is the ratio of the times in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cpu/backend.hpp"

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GPURUN_TEST_SOURCE_DIR) + "/tests/data/ptx/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Setup {
  std::unique_ptr<gpurun::Backend> backend = gpurun::make_cpu_backend();
  std::unique_ptr<gpurun::Context> context;
  std::unique_ptr<gpurun::Module> module;
  std::vector<std::unique_ptr<gpurun::Buffer>> buffers;
  gpurun::ArgPack args;

  // check: 0 none, 1 memcheck, 2 racecheck, 3 initcheck, 4 synccheck; engine: 0 the interpreter,
  // 1 the compiled engine.
  Setup(const std::string& ptx_file, int threads, std::int64_t check, std::int64_t engine) {
    gpurun::ContextOptions options;
    options.settings.host_threads = threads;
    options.settings.stats = engine == 0;
    options.settings.cpu_engine = engine == 0 ? "interpret" : "compiled";
    using S = gpurun::DeviceSettings;
    static bool S::*const checks[] = {nullptr, &S::memcheck, &S::racecheck, &S::initcheck,
                                      &S::synccheck};
    if (check > 0 && check < 5)
      options.settings.*checks[check] = true;
    context = backend->devices()[0]->create_context(options);
    gpurun::KernelSource src{fixture(ptx_file), ptx_file, gpurun::Language::ptx};
    module = context->load(context->compile(src, {}));
  }
  void buffer(std::size_t floats, float value) {
    buffers.push_back(context->allocate(floats * sizeof(float)));
    std::vector<float> init(floats, value);
    context->copy_to_device(*buffers.back(), std::as_bytes(std::span(init)));
    args.add_buffer(*buffers.back());
  }
  template <class T> void scalar(T v) {
    std::vector<std::byte> bytes(sizeof(T));
    std::memcpy(bytes.data(), &v, sizeof(T));
    args.add_bytes(std::move(bytes));
  }
  void run(benchmark::State& state, const std::string& kernel, gpurun::LaunchConfig config) {
    // The first launch compiles (the compiled engine) or warms the caches.
    context->launch(module->function(kernel), config, args);
    context->synchronize();
    double lanes = 0;
    for (auto _ : state) {
      context->launch(module->function(kernel), config, args);
      context->synchronize();
      lanes += context->last_launch_stats()["lane_instructions"];
    }
    if (lanes > 0)
      state.counters["lane_inst_per_s"] = benchmark::Counter(lanes, benchmark::Counter::kIsRate);
  }
};

// Arguments: worker threads, check (0 none, 1 memcheck, 2 racecheck, 3 initcheck, 4 synccheck),
// engine (0 interpreter, 1 compiled).
void BM_VectorAdd(benchmark::State& state) {
  const unsigned n = 1 << 20;
  Setup s("vector_add.ptx", static_cast<int>(state.range(0)), state.range(1), state.range(2));
  s.buffer(n, 1.0f);
  s.buffer(n, 2.0f);
  s.buffer(n, 0.0f);
  s.scalar(n);
  s.run(state, "vector_add", {{n / 256, 1, 1}, {256, 1, 1}, 0});
}

void BM_MatmulTiled(benchmark::State& state) {
  const int n = 128;
  Setup s("matmul_tiled.ptx", static_cast<int>(state.range(0)), state.range(1), state.range(2));
  s.buffer(n * n, 1.0f);
  s.buffer(n * n, 0.5f);
  s.buffer(n * n, 0.0f);
  s.scalar(n);
  s.run(state, "matmul_tiled", {{n / 16, n / 16, 1}, {16, 16, 1}, 0});
}

void BM_Reduction(benchmark::State& state) {
  const unsigned n = 1 << 18;
  Setup s("reduce_block.ptx", static_cast<int>(state.range(0)), state.range(1), state.range(2));
  s.buffer(n, 1.0f);
  s.buffer(n / 256, 0.0f);
  s.scalar(n);
  s.run(state, "reduce_block", {{n / 256, 1, 1}, {256, 1, 1}, 256 * sizeof(float)});
}

void configs(benchmark::internal::Benchmark* b) {
  b->Args({1, 0, 0})->Args({2, 0, 0})->Args({1, 1, 0})->Args({1, 2, 0})->Args({1, 3, 0});
  b->Args({1, 4, 0})->Args({1, 0, 1})->Args({2, 0, 1});
  b->ArgNames({"threads", "check", "compiled"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

} // namespace

BENCHMARK(BM_VectorAdd)->Apply(configs);
BENCHMARK(BM_MatmulTiled)->Apply(configs);
BENCHMARK(BM_Reduction)->Apply(configs);
BENCHMARK_MAIN();
