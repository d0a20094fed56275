// fma.rn.f32 on x86-64 processors with FMA3: the same single rounding as fmaf, as one instruction
// in the handler's lane loop instead of a library call per lane (the tiled matmul spends a third
// of its time there otherwise). This file alone is compiled with -mfma; select_float takes its
// handler only when the processor has FMA3 and AVX. Everything here is inlined into the handler
// ([[gnu::flatten]]) and local to this file, so no FMA instruction can reach code that other
// files share.
#include <cstdint>
#include <cstring>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {
namespace {

#if defined(__x86_64__) && defined(__FMA__)

constexpr std::uint32_t k_canonical_nan_f32 = 0x7fffffffu;

template <bool Ftz, bool Sat> [[gnu::flatten]] void fma_rn_f32(Warp& w, const Inst& in,
                                                              std::uint32_t mask) {
  const std::uint64_t* a = w.regs + std::size_t{in.a} * kWarpSize;
  const std::uint64_t* b = w.regs + std::size_t{in.b} * kWarpSize;
  const std::uint64_t* c = w.regs + std::size_t{in.c} * kWarpSize;
  std::uint64_t* d = w.regs + std::size_t{in.d} * kWarpSize;
  auto lane = [&](int l) {
    auto in_value = [](std::uint64_t slot) {
      auto bits = static_cast<std::uint32_t>(slot);
      if (Ftz && (bits & 0x7f800000u) == 0)
        bits &= 0x80000000u; // subnormal inputs flush to a zero of their sign
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    };
    float r = __builtin_fmaf(in_value(a[l]), in_value(b[l]), in_value(c[l]));
    std::uint32_t bits;
    std::memcpy(&bits, &r, 4);
    if ((bits & 0x7fffffffu) > 0x7f800000u) {
      bits = Sat ? 0u : k_canonical_nan_f32;
    } else {
      if (Ftz && (bits & 0x7f800000u) == 0)
        bits &= 0x80000000u;
      if (Sat) { // [+0, 1]: every negative value, -0 too, becomes +0
        if (bits & 0x80000000u)
          bits = 0;
        else if (!(bits & 0x80000000u) && bits > 0x3f800000u)
          bits = 0x3f800000u;
      }
    }
    d[l] = bits;
  };
  if (mask == kFullMask) {
    for (int l = 0; l < kWarpSize; ++l)
      lane(l);
  } else {
    for (std::uint32_t m = mask; m; m &= m - 1)
      lane(__builtin_ctz(m));
  }
}

bool processor_has_fma3() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx");
}

#endif

} // namespace

Handler fma3_rn_f32(bool ftz, bool sat) {
#if defined(__x86_64__) && defined(__FMA__)
  static const bool available = processor_has_fma3();
  if (!available)
    return nullptr;
  if (ftz)
    return sat ? &fma_rn_f32<true, true> : &fma_rn_f32<true, false>;
  return sat ? &fma_rn_f32<false, true> : &fma_rn_f32<false, false>;
#else
  (void)ftz;
  (void)sat;
  return nullptr;
#endif
}

} // namespace gpurun::emu
