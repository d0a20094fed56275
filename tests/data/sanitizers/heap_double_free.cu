// memcheck (device heap): an error path frees a per-thread scratch block that the normal path
// frees again.
extern "C" __global__ void work(const int* in, int* out) {
  int* scratch = static_cast<int*>(malloc(4 * sizeof(int)));
  scratch[0] = in[threadIdx.x];
  if (scratch[0] < 0)
    free(scratch); // error path, and then falls through
  out[threadIdx.x] = scratch[0] * 2;
  free(scratch);
}
