// Every thread prints one long line: with many threads, device output of hundreds of KB, more
// than any pipe holds, so a reader that is not draining it would stall the writer.
#include <cstdio>

extern "C" __global__ void print_many() {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  printf("thread %06u says the quick brown fox jumps over the lazy dog 0123456789 %06u\n", id, id);
}
