// synccheck: a barrier in a loop whose trip count differs between warps (work per warp taken
// from the data), so warps reach different numbers of __syncthreads().
extern "C" __global__ void per_warp_rounds(const int* rounds, int* out) {
  __shared__ int s[128];
  int warp = threadIdx.x / 32;
  int acc = 0;
  for (int r = 0; r < rounds[warp]; ++r) {
    s[threadIdx.x] = r;
    __syncthreads();
    acc += s[(threadIdx.x + 32) % blockDim.x];
  }
  out[threadIdx.x] = acc;
}
