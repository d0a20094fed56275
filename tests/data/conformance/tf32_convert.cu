// cvt to tf32 (the operand format of the tf32 tensor-core instructions) in each rounding mode
// sm_90 has (.satfinite with .rn/.rz needs sm_100),
// over f32 bit patterns: ties, values that round past the largest finite, infinities, NaNs,
// subnormals and random patterns. out[i][form] = result bits.
#include <cstdint>

extern "C" __global__ void tf32_convert(const unsigned* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const unsigned x = in[i];
  unsigned r[6];
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r[0]) : "f"(__uint_as_float(x)));
  asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r[1]) : "f"(__uint_as_float(x)));
  asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r[2]) : "f"(__uint_as_float(x)));
  asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(r[3]) : "f"(__uint_as_float(x)));
  asm("cvt.rn.relu.tf32.f32 %0, %1;" : "=r"(r[4]) : "f"(__uint_as_float(x)));
  asm("cvt.rz.relu.tf32.f32 %0, %1;" : "=r"(r[5]) : "f"(__uint_as_float(x)));
  for (int j = 0; j < 6; ++j)
    out[i * 6 + j] = r[j];
}
