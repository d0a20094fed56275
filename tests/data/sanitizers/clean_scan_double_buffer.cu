// clean: a Hillis-Steele scan with two buffers, one barrier per step.
extern "C" __global__ void scan(const int* in, int* out) {
  __shared__ int s[2][128];
  unsigned t = threadIdx.x;
  int cur = 0;
  s[cur][t] = in[t];
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d *= 2) {
    s[1 - cur][t] = s[cur][t] + (t >= d ? s[cur][t - d] : 0);
    cur = 1 - cur;
    __syncthreads();
  }
  out[t] = s[cur][t];
}
