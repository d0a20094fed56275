#include "base/rng.hpp"

#include <bit>
#include <cmath>

#include <gtest/gtest.h>

namespace gpurun {
namespace {

// Expected values below come from this independent Python implementation (run once), which
// itself reproduces Random123's published known-answer vectors (the first test):
//
//   M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
//   def philox(c, k):
//       for r in range(10):
//           p0, p1 = M0 * c[0], M1 * c[2]
//           c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & 0xffffffff, (p0 >> 32) ^ c[3] ^ k[1],
//                p0 & 0xffffffff]
//           k = [(k[0] + W0) & 0xffffffff, (k[1] + W1) & 0xffffffff]
//       return c
//   def block(seed, i): return philox([i & 0xffffffff, i >> 32, 0, 0],
//                                     [seed & 0xffffffff, seed >> 32])
//   rand f32:  (block(seed, i)[0] >> 8) * 2**-24
//   rand f64:  ((((w[0] << 32) | w[1]) >> 11) * 2**-53
//   randn f32: sqrt(-2 log(1 - u1)) cos(2 pi u2), u1, u2 = the f32 mapping of w[0], w[1]
//   ints:      lo + ((((w[1] << 32) | w[0]) * (hi - lo + 1)) >> 64)

TEST(Philox, KnownAnswerVectors) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(Philox, BlockUsesTheIndexAsCounterAndTheSeedAsKey) {
  EXPECT_EQ(philox_block(7, 0), (PhiloxCounter{0xf4607a2d, 0xc009f9dc, 0x1d3aba42, 0x15edac82}));
  EXPECT_EQ(philox_block(7, 2), (PhiloxCounter{0x018e23c0, 0x0229fbb4, 0xcec27c6a, 0xd94320a7}));
  // Both 64-bit halves of seed and index take part.
  EXPECT_EQ(philox_block((1ULL << 40) + 1, (1ULL << 33) + 5),
            (PhiloxCounter{0x688aba71, 0xaf61c1e6, 0xc74ae41b, 0xd90773a1}));
}

TEST(Philox, UniformMappings) {
  EXPECT_EQ(uniform_float(0), 0.0f);
  EXPECT_EQ(uniform_float(0xffffffffu), 1.0f - 0x1p-24f); // never reaches 1
  EXPECT_EQ(uniform_float(0x80000000u), 0.5f);
  EXPECT_EQ(uniform_double(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_EQ(uniform_double(0x80000000u, 0), 0.5);
}

TEST(Philox, FirstValuesOfRandSeed7) {
  const std::uint32_t expected_f32[] = {0x3f74607a, 0x3ed05d1c, 0x3bc71180, 0x3ec7c82c};
  for (std::uint64_t i = 0; i < 4; ++i)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(static_cast<float>(rand_unit(7, i, false))),
              expected_f32[i])
        << i;
  EXPECT_EQ(rand_unit(7, 0, true), 0x1.e8c0f45b8013fp-1);
  EXPECT_EQ(rand_unit(7, 1, true), 0x1.a0ba3a6f2e5eep-2);
}

TEST(Philox, FirstValuesOfRandnSeed7) {
  const double expected[] = {0x1.37a68f6ac734fp-9, 0x1.25d5ff5a6be72p-2, 0x1.c38b1e20988d6p-4,
                             -0x1.a4da0c96f4fedp-11};
  for (std::uint64_t i = 0; i < 4; ++i)
    EXPECT_DOUBLE_EQ(randn_unit(7, i, false), expected[i]);
}

TEST(Philox, IntegerRangeMapping) {
  EXPECT_EQ(bits_to_range(rand_bits64(7, 0), 256), 192u);
  EXPECT_EQ(bits_to_range(rand_bits64(7, 1), 256), 203u);
  EXPECT_EQ(bits_to_range(~0ULL, 10), 9u);
  EXPECT_EQ(bits_to_range(0, 10), 0u);
  EXPECT_EQ(bits_to_range(12345, 0), 12345u); // span 0 means the full 2^64
}

TEST(Philox, RandnLooksNormal) {
  double sum = 0, sum_sq = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double z = randn_unit(1, static_cast<std::uint64_t>(i), true);
    ASSERT_TRUE(std::isfinite(z));
    sum += z;
    sum_sq += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.02);
  EXPECT_NEAR(sum_sq / n, 1.0, 0.02);
}

} // namespace
} // namespace gpurun
