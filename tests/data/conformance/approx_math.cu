// The special-function instructions as kernels reach them: fast-math library calls (compiled with
// --use_fast_math, so expf, logf, sinf, cosf, tanhf and division lower to `.approx` forms with
// .ftz), the intrinsics, and the non-.ftz PTX forms written out, over random bit patterns (every
// exponent, subnormals, NaN payloads, infinities) and over ordinary arguments in [-10, 10).
#include <cstdint>

__device__ float tanh_approx(float x) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ float lg2_approx(float x) { // without .ftz: subnormals scaled
  float r;
  asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ float sin_approx(float x) {
  float r;
  asm("sin.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
__device__ float ex2_approx(float x) {
  float r;
  asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

extern "C" __global__ void approx_math(const std::uint32_t* bits, const float* args, unsigned n,
                                       float* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * n) return;
  float x = t < n ? __uint_as_float(bits[t]) : args[t - n];
  float* o = out + 16 * t;
  o[0] = expf(x);
  o[1] = __expf(x);
  o[2] = logf(x);
  o[3] = __log2f(x);
  o[4] = sinf(x);
  o[5] = cosf(x);
  o[6] = __tanf(x);
  o[7] = tanhf(x);
  o[8] = rsqrtf(x);
  o[9] = __fdividef(1.5f, x);
  o[10] = __powf(fabsf(x), 0.37f);
  o[11] = tanh_approx(x);
  o[12] = lg2_approx(x);
  o[13] = sin_approx(x);
  o[14] = ex2_approx(x);
  o[15] = sqrtf(x);
}
