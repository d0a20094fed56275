// Which NaN the GPU produces: every arithmetic instruction and conversion that can make a NaN,
// fed NaNs with payloads (quiet and signalling, either sign) and ordinary operands. Prints one
// line per case, `op a b -> result` in hex, for the CPU backend's tests to hold the emulator to.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "nan_payloads: %s: %s\n", #call, cudaGetErrorString(e_));           \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

constexpr int kF32 = 8, kF64 = 6, kF16 = 6;
__constant__ uint32_t f32_in[kF32] = {0x7fc12345, 0x7f812345, 0xffc12345, 0xff812345,
                                      0x7fffffff, 0x3f800000, 0x7f800000, 0xff800000};
__constant__ uint64_t f64_in[kF64] = {0x7ff8123456789abcull, 0x7ff0123456789abcull,
                                      0xfff8123456789abcull, 0x3ff0000000000000ull,
                                      0x7ff0000000000000ull, 0x7fffffffffffffffull};
__constant__ uint16_t f16_in[kF16] = {0x7e55, 0x7c55, 0xfe55, 0x3c00, 0x7c00, 0xfc00};

#define U32(NAME, BODY)                                                                        \
  __device__ uint32_t NAME(uint32_t a) {                                                       \
    uint32_t d;                                                                                \
    asm("{.reg .f32 x, y; mov.b32 x, %1; " BODY " mov.b32 %0, y;}" : "=r"(d) : "r"(a));       \
    return d;                                                                                  \
  }
#define B32(NAME, BODY)                                                                        \
  __device__ uint32_t NAME(uint32_t a, uint32_t b) {                                           \
    uint32_t d;                                                                                \
    asm("{.reg .f32 x, z, y; mov.b32 x, %1; mov.b32 z, %2; " BODY " mov.b32 %0, y;}"          \
        : "=r"(d)                                                                              \
        : "r"(a), "r"(b));                                                                     \
    return d;                                                                                  \
  }
#define B64(NAME, BODY)                                                                        \
  __device__ uint64_t NAME(uint64_t a, uint64_t b) {                                           \
    uint64_t d;                                                                                \
    asm("{.reg .f64 x, z, y; mov.b64 x, %1; mov.b64 z, %2; " BODY " mov.b64 %0, y;}"          \
        : "=l"(d)                                                                              \
        : "l"(a), "l"(b));                                                                     \
    return d;                                                                                  \
  }
#define B16(NAME, BODY)                                                                        \
  __device__ uint16_t NAME(uint16_t a, uint16_t b) {                                           \
    uint16_t d;                                                                                \
    asm("{.reg .f16 x, z, y; mov.b16 x, %1; mov.b16 z, %2; " BODY " mov.b16 %0, y;}"          \
        : "=h"(d)                                                                              \
        : "h"(a), "h"(b));                                                                     \
    return d;                                                                                  \
  }

B32(add_f32, "add.rn.f32 y, x, z;")
B32(sub_f32, "sub.rn.f32 y, x, z;")
B32(mul_f32, "mul.rn.f32 y, x, z;")
B32(fma_f32, "fma.rn.f32 y, x, z, x;")
B32(fma2_f32, "fma.rn.f32 y, z, z, x;")
B32(min_f32, "min.f32 y, x, z;")
B32(max_f32, "max.f32 y, x, z;")
B32(min_nan_f32, "min.NaN.f32 y, x, z;")
B32(max_nan_f32, "max.NaN.f32 y, x, z;")
B32(div_rn_f32, "div.rn.f32 y, x, z;")
B32(div_approx_f32, "div.approx.f32 y, x, z;")
B32(div_full_f32, "div.full.f32 y, x, z;")
B32(add_ftz_f32, "add.rn.ftz.f32 y, x, z;")
B32(mul_sat_f32, "mul.rn.sat.f32 y, x, z;")
U32(abs_f32, "abs.f32 y, x;")
U32(neg_f32, "neg.f32 y, x;")
U32(rcp_rn_f32, "rcp.rn.f32 y, x;")
U32(sqrt_rn_f32, "sqrt.rn.f32 y, x;")
U32(rcp_approx_f32, "rcp.approx.f32 y, x;")
U32(rsqrt_approx_f32, "rsqrt.approx.f32 y, x;")
U32(sqrt_approx_f32, "sqrt.approx.f32 y, x;")
U32(ex2_approx_f32, "ex2.approx.f32 y, x;")
U32(lg2_approx_f32, "lg2.approx.f32 y, x;")
U32(sin_approx_f32, "sin.approx.f32 y, x;")
U32(cos_approx_f32, "cos.approx.f32 y, x;")
U32(tanh_approx_f32, "tanh.approx.f32 y, x;")
U32(cvt_rni_f32, "cvt.rni.f32.f32 y, x;")
U32(cvt_f64_f32, "{.reg .f64 w; cvt.f64.f32 w, x; cvt.rn.f32.f64 y, w;}")
U32(cvt_f16_f32, "{.reg .f16 h; cvt.rn.f16.f32 h, x; cvt.f32.f16 y, h;}")
U32(cvt_bf16_f32, "{.reg .b16 h; cvt.rn.bf16.f32 h, x; cvt.f32.bf16 y, h;}")
B64(add_f64, "add.rn.f64 y, x, z;")
B64(mul_f64, "mul.rn.f64 y, x, z;")
B64(fma_f64, "fma.rn.f64 y, x, z, x;")
B64(min_f64, "min.f64 y, x, z;")
B64(div_rn_f64, "div.rn.f64 y, x, z;")
B64(sqrt_rn_f64, "sqrt.rn.f64 y, x;")
B64(cvt_f32_f64, "{.reg .f32 s; cvt.rn.f32.f64 s, x; cvt.f64.f32 y, s;}")
B64(rcp_approx_f64, "rcp.approx.ftz.f64 y, x;")
B64(rsqrt_approx_f64, "rsqrt.approx.f64 y, x;")
B16(add_f16, "add.rn.f16 y, x, z;")
B16(mul_f16, "mul.rn.f16 y, x, z;")
B16(fma_f16, "fma.rn.f16 y, x, z, x;")
B16(min_f16, "min.f16 y, x, z;")
B16(cvt_f32_f16, "{.reg .f32 s; cvt.f32.f16 s, x; cvt.rn.f16.f32 y, s;}")
B16(ex2_f16, "ex2.approx.f16 y, x;")

#define ALL32(X) X(add_f32) X(sub_f32) X(mul_f32) X(fma_f32) X(fma2_f32) X(min_f32) X(max_f32) \
  X(min_nan_f32) X(max_nan_f32) X(div_rn_f32) X(div_approx_f32) X(div_full_f32) X(add_ftz_f32) \
  X(mul_sat_f32)
#define ALLU32(X) X(abs_f32) X(neg_f32) X(rcp_rn_f32) X(sqrt_rn_f32) X(rcp_approx_f32)          \
  X(rsqrt_approx_f32) X(sqrt_approx_f32) X(ex2_approx_f32) X(lg2_approx_f32) X(sin_approx_f32) \
  X(cos_approx_f32) X(tanh_approx_f32) X(cvt_rni_f32) X(cvt_f64_f32) X(cvt_f16_f32)            \
  X(cvt_bf16_f32)
#define ALL64(X) X(add_f64) X(mul_f64) X(fma_f64) X(min_f64) X(div_rn_f64) X(sqrt_rn_f64)       \
  X(cvt_f32_f64) X(rcp_approx_f64) X(rsqrt_approx_f64)
#define ALL16(X) X(add_f16) X(mul_f16) X(fma_f16) X(min_f16) X(cvt_f32_f16) X(ex2_f16)

#define COUNT(N) +1
constexpr int kB32 = 0 ALL32(COUNT), kU32 = 0 ALLU32(COUNT), kB64 = 0 ALL64(COUNT),
              kB16 = 0 ALL16(COUNT);

__global__ void run(uint32_t* o32, uint32_t* u32, uint64_t* o64, uint16_t* o16) {
  int t = threadIdx.x;
  if (t < kF32 * kF32) {
    uint32_t a = f32_in[t / kF32], b = f32_in[t % kF32];
    int k = 0;
#define DO(N) o32[(k++) * kF32 * kF32 + t] = N(a, b);
    ALL32(DO)
#undef DO
  }
  if (t < kF32) {
    int k = 0;
#define DO(N) u32[(k++) * kF32 + t] = N(f32_in[t]);
    ALLU32(DO)
#undef DO
  }
  if (t < kF64 * kF64) {
    uint64_t a = f64_in[t / kF64], b = f64_in[t % kF64];
    int k = 0;
#define DO(N) o64[(k++) * kF64 * kF64 + t] = N(a, b);
    ALL64(DO)
#undef DO
  }
  if (t < kF16 * kF16) {
    uint16_t a = f16_in[t / kF16], b = f16_in[t % kF16];
    int k = 0;
#define DO(N) o16[(k++) * kF16 * kF16 + t] = N(a, b);
    ALL16(DO)
#undef DO
  }
}

int main() {
  uint32_t *o32, *u32;
  uint64_t* o64;
  uint16_t* o16;
  CHECK(cudaMallocManaged(&o32, sizeof(uint32_t) * kB32 * kF32 * kF32));
  CHECK(cudaMallocManaged(&u32, sizeof(uint32_t) * kU32 * kF32));
  CHECK(cudaMallocManaged(&o64, sizeof(uint64_t) * kB64 * kF64 * kF64));
  CHECK(cudaMallocManaged(&o16, sizeof(uint16_t) * kB16 * kF16 * kF16));
  run<<<1, 64>>>(o32, u32, o64, o16);
  CHECK(cudaDeviceSynchronize());
  uint32_t h32[kF32];
  uint64_t h64[kF64];
  uint16_t h16[kF16];
  CHECK(cudaMemcpyFromSymbol(h32, f32_in, sizeof h32));
  CHECK(cudaMemcpyFromSymbol(h64, f64_in, sizeof h64));
  CHECK(cudaMemcpyFromSymbol(h16, f16_in, sizeof h16));
  int k = 0;
#define P(N)                                                                                   \
  for (int t = 0; t < kF32 * kF32; ++t)                                                        \
    std::printf("%s %08x %08x -> %08x\n", #N, h32[t / kF32], h32[t % kF32], o32[k * kF32 * kF32 + t]); \
  ++k;
  ALL32(P)
#undef P
  k = 0;
#define P(N)                                                                                   \
  for (int t = 0; t < kF32; ++t)                                                               \
    std::printf("%s %08x - -> %08x\n", #N, h32[t], u32[k * kF32 + t]);                         \
  ++k;
  ALLU32(P)
#undef P
  k = 0;
#define P(N)                                                                                   \
  for (int t = 0; t < kF64 * kF64; ++t)                                                        \
    std::printf("%s %016llx %016llx -> %016llx\n", #N, (unsigned long long)h64[t / kF64],      \
                (unsigned long long)h64[t % kF64], (unsigned long long)o64[k * kF64 * kF64 + t]); \
  ++k;
  ALL64(P)
#undef P
  k = 0;
#define P(N)                                                                                   \
  for (int t = 0; t < kF16 * kF16; ++t)                                                        \
    std::printf("%s %04x %04x -> %04x\n", #N, h16[t / kF16], h16[t % kF16], o16[k * kF16 * kF16 + t]); \
  ++k;
  ALL16(P)
#undef P
  return 0;
}
