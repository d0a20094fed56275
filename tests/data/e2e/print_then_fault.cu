// Prints a line, then writes far outside its buffer: the text printed before the fault must
// still reach the report.
#include <cstdio>

extern "C" __global__ void print_then_fault(float* x) {
  printf("before the fault: thread %u\n", threadIdx.x);
  x[static_cast<unsigned long long>(threadIdx.x + 1) << 26] = 1.0f;
}
