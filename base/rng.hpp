#pragma once
// The counter-based generator behind rand/randn fills: Philox4x32-10 (Salmon, Moraes, Dror and
// Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011). Element i of a buffer is a pure
// function of (seed, i), so its value does not depend on the buffer's length, the thread count or
// the machine. The exact mappings are documented in docs/arg-grammar.md.

#include <array>
#include <cstdint>

namespace gpurun {

using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

/// Philox4x32 with 10 rounds, as in Random123's philox4x32_10.
[[nodiscard]] PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

/// The four 32-bit words for element `index` under `seed`: counter {index lo, index hi, 0, 0},
/// key {seed lo, seed hi}.
[[nodiscard]] PhiloxCounter philox_block(std::uint64_t seed, std::uint64_t index);

/// u32 → [0, 1) with 24 bits: (x >> 8) * 2^-24 (exact in float).
[[nodiscard]] float uniform_float(std::uint32_t x);
/// (hi, lo) → [0, 1) with 53 bits: (((hi << 32) | lo) >> 11) * 2^-53 (exact in double).
[[nodiscard]] double uniform_double(std::uint32_t hi, std::uint32_t lo);

/// Element `index` of rand(seed): uniform in [0, 1); 24-bit resolution when `wide` is false
/// (f16, bf16, f32 buffers) and 53-bit when true (f64 buffers).
[[nodiscard]] double rand_unit(std::uint64_t seed, std::uint64_t index, bool wide);
/// Element `index` of randn(seed): a standard normal by Box–Muller, z = sqrt(-2 ln(1 - u1)) *
/// cos(2 pi u2), with u1, u2 from rand_unit's mapping of words 0 and 1 (24-bit) or of words
/// (0,1) and (2,3) (53-bit).
[[nodiscard]] double randn_unit(std::uint64_t seed, std::uint64_t index, bool wide);
/// Element `index` of an integer rand(seed): 64 random bits, words 1 (high) and 0 (low).
[[nodiscard]] std::uint64_t rand_bits64(std::uint64_t seed, std::uint64_t index);
/// Maps 64 random bits onto [0, span) by the high half of a 64×64 multiply (Lemire); span 0
/// means 2^64 (the whole range).
[[nodiscard]] std::uint64_t bits_to_range(std::uint64_t bits, std::uint64_t span);

} // namespace gpurun
