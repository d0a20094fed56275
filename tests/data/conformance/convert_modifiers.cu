// cvt with .relu and .satfinite, and the FP8 pair conversions, over inputs made from the thread
// index t (0 … 65535) so that the whole f16 and FP8-pair input spaces are covered:
//   x0 = bits(t << 16), x1 = x0 | 0x1000 (an f16 tie), x2 = x0 | 0x8000 (a bf16 tie),
//   x3 = x0 | 0x8001 (just above it); h2 = t | (t ^ 0x8000) << 16 (every f16, both signs).
// out16 receives 30 u16 per thread and out32 4 u32, in the order written below; the expected
// values are computed independently in tests/e2e/conformance_reference_test.cpp.
#include <cstdint>


#define CVT_F8X2_F32(MODS, A, B)                                                                   \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm("cvt." MODS ".f32 %0, %1, %2;" : "=h"(r) : "f"(A), "f"(B));                             \
    return r;                                                                                      \
  }()
#define CVT_F8X2_F16X2(MODS, A)                                                                    \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm("cvt." MODS ".f16x2 %0, %1;" : "=h"(r) : "r"(A));                                          \
    return r;                                                                                      \
  }()
#define CVT_F16X2_F8X2(MODS, A)                                                                    \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm("cvt." MODS " %0, %1;" : "=r"(r) : "h"(A));                                                \
    return r;                                                                                      \
  }()
#define CVT_H_F32(MODS, A)                                                                         \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm("cvt." MODS ".f32 %0, %1;" : "=h"(r) : "f"(A));                                            \
    return r;                                                                                      \
  }()
#define CVT_H2_F32(MODS, A, B)                                                                     \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm("cvt." MODS ".f32 %0, %1, %2;" : "=r"(r) : "f"(A), "f"(B));                               \
    return r;                                                                                      \
  }()

extern "C" __global__ void convert_modifiers(unsigned n, std::uint16_t* out16, unsigned* out32) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const unsigned b0 = t << 16;
  const float x0 = __uint_as_float(b0), x1 = __uint_as_float(b0 | 0x1000u),
              x2 = __uint_as_float(b0 | 0x8000u), x3 = __uint_as_float(b0 | 0x8001u);
  const unsigned h2 = t | (t ^ 0x8000u) << 16;
  const unsigned short f8 = static_cast<unsigned short>(t);
  std::uint16_t* o = out16 + 30 * t;
  o[0] = CVT_F8X2_F32("rn.satfinite.e4m3x2", x0, x1);
  o[1] = CVT_F8X2_F32("rn.satfinite.e4m3x2", x2, x3);
  o[2] = CVT_F8X2_F32("rn.satfinite.relu.e4m3x2", x0, x1);
  o[3] = CVT_F8X2_F32("rn.satfinite.relu.e4m3x2", x2, x3);
  o[4] = CVT_F8X2_F32("rn.satfinite.e5m2x2", x0, x1);
  o[5] = CVT_F8X2_F32("rn.satfinite.e5m2x2", x2, x3);
  o[6] = CVT_F8X2_F32("rn.satfinite.relu.e5m2x2", x0, x1);
  o[7] = CVT_F8X2_F32("rn.satfinite.relu.e5m2x2", x2, x3);
  o[8] = CVT_F8X2_F16X2("rn.satfinite.e4m3x2", h2);
  o[9] = CVT_F8X2_F16X2("rn.satfinite.relu.e4m3x2", h2);
  o[10] = CVT_F8X2_F16X2("rn.satfinite.e5m2x2", h2);
  o[11] = CVT_F8X2_F16X2("rn.satfinite.relu.e5m2x2", h2);
  o[12] = CVT_H_F32("rn.relu.f16", x1);
  o[13] = CVT_H_F32("rn.satfinite.f16", x1);
  o[14] = CVT_H_F32("rz.relu.satfinite.f16", x1);
  o[15] = CVT_H_F32("rn.relu.f16", x0);
  o[16] = CVT_H_F32("rn.satfinite.f16", x0);
  o[17] = CVT_H_F32("rz.relu.satfinite.f16", x3);
  o[18] = CVT_H_F32("rn.relu.bf16", x2);
  o[19] = CVT_H_F32("rn.satfinite.bf16", x2);
  o[20] = CVT_H_F32("rz.relu.satfinite.bf16", x2);
  o[21] = CVT_H_F32("rn.relu.bf16", x3);
  o[22] = CVT_H_F32("rn.satfinite.bf16", x3);
  o[23] = CVT_H_F32("rz.relu.satfinite.bf16", x3);
  const unsigned p0 = CVT_H2_F32("rn.relu.satfinite.f16x2", x1, x3);
  const unsigned p1 = CVT_H2_F32("rn.relu.bf16x2", x2, x0);
  const unsigned p2 = CVT_H2_F32("rz.satfinite.bf16x2", x3, x1);
  o[24] = static_cast<std::uint16_t>(p0);
  o[25] = static_cast<std::uint16_t>(p0 >> 16);
  o[26] = static_cast<std::uint16_t>(p1);
  o[27] = static_cast<std::uint16_t>(p1 >> 16);
  o[28] = static_cast<std::uint16_t>(p2);
  o[29] = static_cast<std::uint16_t>(p2 >> 16);
  unsigned* w = out32 + 4 * t;
  w[0] = CVT_F16X2_F8X2("rn.f16x2.e4m3x2", f8);
  w[1] = CVT_F16X2_F8X2("rn.relu.f16x2.e4m3x2", f8);
  w[2] = CVT_F16X2_F8X2("rn.f16x2.e5m2x2", f8);
  w[3] = CVT_F16X2_F8X2("rn.relu.f16x2.e5m2x2", f8);
}
