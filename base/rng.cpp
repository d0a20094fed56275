#include "base/rng.hpp"

#include <cmath>
#include <numbers>

namespace gpurun {

namespace {

// Multipliers and Weyl key increments from Salmon et al. 2011, table 2 / Random123.
constexpr std::uint32_t k_mul0 = 0xD2511F53u;
constexpr std::uint32_t k_mul1 = 0xCD9E8D57u;
constexpr std::uint32_t k_weyl0 = 0x9E3779B9u;
constexpr std::uint32_t k_weyl1 = 0xBB67AE85u;

} // namespace

PhiloxCounter philox4x32_10(PhiloxCounter ctr, PhiloxKey key) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{k_mul0} * ctr[0];
    const std::uint64_t p1 = std::uint64_t{k_mul1} * ctr[2];
    const auto hi0 = static_cast<std::uint32_t>(p0 >> 32);
    const auto lo0 = static_cast<std::uint32_t>(p0);
    const auto hi1 = static_cast<std::uint32_t>(p1 >> 32);
    const auto lo1 = static_cast<std::uint32_t>(p1);
    ctr = {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
    key[0] += k_weyl0;
    key[1] += k_weyl1;
  }
  return ctr;
}

PhiloxCounter philox_block(std::uint64_t seed, std::uint64_t index) {
  return philox4x32_10(
      {static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), 0, 0},
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

float uniform_float(std::uint32_t x) {
  return static_cast<float>(x >> 8) * 0x1p-24f;
}

double uniform_double(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits = (std::uint64_t{hi} << 32) | lo;
  return static_cast<double>(bits >> 11) * 0x1p-53;
}

double rand_unit(std::uint64_t seed, std::uint64_t index, bool wide) {
  const auto w = philox_block(seed, index);
  return wide ? uniform_double(w[0], w[1]) : uniform_float(w[0]);
}

double randn_unit(std::uint64_t seed, std::uint64_t index, bool wide) {
  const auto w = philox_block(seed, index);
  const double u1 = wide ? uniform_double(w[0], w[1]) : uniform_float(w[0]);
  const double u2 = wide ? uniform_double(w[2], w[3]) : uniform_float(w[1]);
  // 1 - u1 lies in (0, 1], so the logarithm is finite.
  return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::uint64_t rand_bits64(std::uint64_t seed, std::uint64_t index) {
  const auto w = philox_block(seed, index);
  return (std::uint64_t{w[1]} << 32) | w[0];
}

std::uint64_t bits_to_range(std::uint64_t bits, std::uint64_t span) {
  if (span == 0)
    return bits;
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits) * span) >> 64);
}

} // namespace gpurun
