// Waits for a flag nobody sets: only a watchdog ends it. The flag is read through a volatile
// pointer, so no compiler may hoist the load and drop the loop.
extern "C" __global__ void spin(const volatile int* flag, int* out) {
  int n = 0;
  while (flag[0] == 0)
    ++n;
  out[threadIdx.x] = n;
}
