// Uses triple() from a header it does not include: the build pre-includes it (-include extra.h).
#include "a_header_nobody_has.h"

__global__ void triple_all(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = triple(v[i]);
}

int main() { host_only_report("done"); }
