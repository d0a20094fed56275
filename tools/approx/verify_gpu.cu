// The GPU half of verify: evaluates ops.cuh's instructions into host memory.
#include <vector>

#include "ops.cuh"

namespace {
void* g_device = nullptr;
size_t g_capacity = 0;
} // namespace

size_t gpu_result_width(const char* name) {
  const Op* op = find_op(name);
  return op ? result_width(*op) : 0;
}

void gpu_evaluate(const char* name, uint32_t lo, uint32_t stride, uint64_t n, uint32_t low,
                  void* host_out) {
  const Op* op = find_op(name);
  if (!op) {
    std::fprintf(stderr, "verify: unknown op %s\n", name);
    std::exit(2);
  }
  const size_t bytes = n * result_width(*op);
  if (bytes > g_capacity) {
    if (g_device)
      CHECK(cudaFree(g_device));
    CHECK(cudaMalloc(&g_device, bytes));
    g_capacity = bytes;
  }
  evaluate(*op, lo, stride, n, low, g_device);
  CHECK(cudaMemcpy(host_out, g_device, bytes, cudaMemcpyDeviceToHost));
}
