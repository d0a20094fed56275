// Values the compiled engine's affine guesses get wrong on purpose: a step that is uniform by its
// definitions but differs per thread (set under a guard), pointers advanced by such a step in a
// loop with barriers, a trip count that differs per thread around a barrier-free loop, 32-bit
// index arithmetic that wraps inside a row, and a 2D block whose rows are not a vector's width.
// Both engines must give the same bytes.
extern "C" __global__ void affine_guesses(const float* in, float* out, unsigned* idx, int n,
                                          unsigned wrap_base) {
  __shared__ float tile[32][21];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int t = ty * blockDim.x + tx;
  const int g = blockIdx.x * blockDim.x * blockDim.y + t;
  int step = 1;
  if (tx % 3 == 0)
    step = 2;
  const float* p = in + (g % n);
  tile[ty][tx] = *p;
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 6; ++k) {
    acc += tile[(ty + k) % blockDim.y][(tx + k * step) % blockDim.x];
    p += step;
    acc += *p * 0.5f;
    __syncthreads();
  }
  for (int k = 0; k < tx % 5; ++k)
    acc += tile[ty][(tx + k) % blockDim.x];
  // Wraps at 2^32 for some threads of a row: the affine form must not be assumed past it.
  const unsigned w = wrap_base + static_cast<unsigned>(tx) * 0x10000000u;
  idx[g] = w;
  out[g] = acc + tile[ty][(w >> 28) % blockDim.x];
}
