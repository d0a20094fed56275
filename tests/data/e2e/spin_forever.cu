// Waits for a flag nobody sets: only a watchdog ends it.
extern "C" __global__ void spin(const int* flag, int* out) {
  int n = 0;
  while (flag[0] == 0)
    ++n;
  out[threadIdx.x] = n;
}
