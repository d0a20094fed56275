// racecheck: a Hillis-Steele inclusive scan done in place with one barrier per step: a thread
// adds its left neighbour's slot while that neighbour overwrites it (write-after-read).
extern "C" __global__ void scan(const int* in, int* out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    if (t >= d)
      s[t] += s[t - d]; // needs a second buffer (or a barrier between the read and the write)
    __syncthreads();
  }
  out[t] = s[t];
}
