// Edge cases of IEEE and integer arithmetic that the CPU backend must reproduce bit for bit:
// every pair of special values through division, fused multiply-add, min/max, square root,
// float -> int conversions and integer division/remainder (including by zero and INT_MIN / -1).
#include <climits>

extern "C" __global__ void numeric_edges(const float* a, const int* x, unsigned n, float* f_out,
                                         int* i_out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  float p = a[t / n], q = a[t % n];
  int u = x[t / n], v = x[t % n];
  float* f = f_out + 8 * t;
  f[0] = p / q;
  f[1] = fmaf(p, q, 1.0f);
  f[2] = fminf(p, q);
  f[3] = fmaxf(p, q);
  f[4] = sqrtf(p);
  f[5] = p * q - q;
  f[6] = __fdiv_rz(p, q);
  f[7] = __fmul_rd(p, q);
  int* i = i_out + 8 * t;
  i[0] = u / v;
  i[1] = u % v;
  i[2] = static_cast<int>(static_cast<unsigned>(u) / static_cast<unsigned>(v));
  i[3] = static_cast<int>(static_cast<unsigned>(u) % static_cast<unsigned>(v));
  i[4] = static_cast<int>(p);
  i[5] = static_cast<int>(static_cast<unsigned>(q));
  i[6] = __float2int_rn(p);
  i[7] = __mulhi(u, v);
}
