#include "pipeline/fill.hpp"

#include <bit>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/npy.hpp"
#include "base/rng.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

/// Parses FILL for a 1-D buffer of `n` elements of `type` and applies it.
HostBuffer filled(DType type, std::size_t n, const std::string& fill,
                  const std::filesystem::path& base = {}) {
  const std::string whole =
      "x=" + std::string(dtype_name(type)) + "[" + std::to_string(n) + "]:" + fill;
  HostBuffer buffer(type, {n});
  const FillSpec spec =
      parse_fill(fill, type, n, SourceText{"--arg", whole, whole.size() - fill.size()});
  apply_fill(spec, buffer, base);
  return buffer;
}

template <typename T> std::vector<T> values(const HostBuffer& b) {
  std::vector<T> v(b.element_count());
  std::memcpy(v.data(), b.data(), b.size_bytes());
  return v;
}

/// The usage Error message of parsing and applying `fill`.
std::string fill_error(DType type, std::size_t n, const std::string& fill,
                       const std::filesystem::path& base = {}) {
  try {
    (void)filled(type, n, fill, base);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for '" << fill << "'";
  return {};
}

TEST(Fill, ZerosOnesAndConstants) {
  EXPECT_EQ(values<float>(filled(DType::f32, 3, "zeros")), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(values<double>(filled(DType::f64, 2, "ones")), (std::vector<double>{1, 1}));
  EXPECT_EQ(values<std::int32_t>(filled(DType::i32, 2, "-7")), (std::vector<std::int32_t>{-7, -7}));
  EXPECT_EQ(values<float>(filled(DType::f32, 2, "2.5")), (std::vector<float>{2.5f, 2.5f}));
  EXPECT_EQ(values<std::uint16_t>(filled(DType::f16, 1, "1.5")),
            (std::vector<std::uint16_t>{0x3e00}));
  EXPECT_EQ(values<std::uint16_t>(filled(DType::bf16, 1, "ones")),
            (std::vector<std::uint16_t>{0x3f80}));
  // Integers beyond 2^53 stay exact.
  EXPECT_EQ(values<std::uint64_t>(filled(DType::u64, 1, "2**64-1")),
            (std::vector<std::uint64_t>{UINT64_MAX}));
  EXPECT_EQ(values<std::int64_t>(filled(DType::i64, 1, "2**62+1")),
            (std::vector<std::int64_t>{(1LL << 62) + 1}));
}

TEST(Fill, Iota) {
  EXPECT_EQ(values<float>(filled(DType::f32, 4, "iota")), (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(values<float>(filled(DType::f32, 3, "iota(1.5, 0.5)")),
            (std::vector<float>{1.5f, 2.0f, 2.5f}));
  EXPECT_EQ(values<std::int32_t>(filled(DType::i32, 3, "iota(10,-3)")),
            (std::vector<std::int32_t>{10, 7, 4}));
  // A negative step is fine for unsigned buffers; integer iota wraps at the type's width.
  EXPECT_EQ(values<std::uint8_t>(filled(DType::u8, 3, "iota(1,-1)")),
            (std::vector<std::uint8_t>{1, 0, 255}));
  const auto wrapped = values<std::uint8_t>(filled(DType::u8, 258, "iota"));
  EXPECT_EQ(wrapped[255], 255);
  EXPECT_EQ(wrapped[256], 0);
  EXPECT_EQ(wrapped[257], 1);
}

TEST(Fill, RandFloatMatchesThePinnedPhiloxValues) {
  const auto v = values<std::uint32_t>(filled(DType::f32, 4, "rand(seed=7)"));
  EXPECT_EQ(v, (std::vector<std::uint32_t>{0x3f74607a, 0x3ed05d1c, 0x3bc71180, 0x3ec7c82c}));
}

TEST(Fill, RandDoubleUses53Bits) {
  const auto v = values<double>(filled(DType::f64, 2, "rand(seed=7)"));
  EXPECT_EQ(v, (std::vector<double>{0x1.e8c0f45b8013fp-1, 0x1.a0ba3a6f2e5eep-2}));
  // f16 takes the 24-bit uniform and rounds it once: 0.9545971155 → 0x3ba3 (0.95458984375).
  EXPECT_EQ(values<std::uint16_t>(filled(DType::f16, 1, "rand(seed=7)")),
            (std::vector<std::uint16_t>{0x3ba3}));
}

TEST(Fill, RandDoesNotDependOnTheBufferLength) {
  const auto small = values<float>(filled(DType::f32, 4, "rand(seed=42,-1,1)"));
  const auto large = values<float>(filled(DType::f32, 100000, "rand(seed=42,-1,1)"));
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(small[i], large[i]);
  for (float x : large) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LT(x, 1.0f);
  }
  const auto other_seed = values<float>(filled(DType::f32, 4, "rand(seed=43,-1,1)"));
  EXPECT_NE(small, other_seed);
}

TEST(Fill, LargeBuffersFilledInParallelMatchTheSequentialDefinition) {
  const std::size_t n = std::size_t{1} << 21; // above the per-thread minimum, so split up
  const auto v = values<std::uint32_t>(filled(DType::u32, n, "rand(seed=11)"));
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(v[i], bits_to_range(rand_bits64(11, i), 1ULL << 32)) << i;
  const auto f = values<float>(filled(DType::f32, n, "iota(0, 0.5)"));
  EXPECT_EQ(f[n - 1], static_cast<float>((n - 1) * 0.5));
}

TEST(Fill, RandIntegers) {
  // Default range: the whole type (u8: 0..255).
  EXPECT_EQ(values<std::uint8_t>(filled(DType::u8, 8, "rand(seed=7)")),
            (std::vector<std::uint8_t>{192, 203, 2, 64, 253, 86, 119, 120}));
  EXPECT_EQ(values<std::int32_t>(filled(DType::i32, 8, "rand(seed=3,-5,5)")),
            (std::vector<std::int32_t>{-4, 1, 3, -4, 0, -4, -1, -3}));
  // Both ends of [LO, HI] are reachable.
  const auto dice = values<std::int16_t>(filled(DType::i16, 2000, "rand(seed=1, 1, 6)"));
  EXPECT_EQ(*std::min_element(dice.begin(), dice.end()), 1);
  EXPECT_EQ(*std::max_element(dice.begin(), dice.end()), 6);
  // The full u64 range uses all 64 bits.
  const auto wide = values<std::uint64_t>(filled(DType::u64, 64, "rand(seed=9)"));
  EXPECT_TRUE(std::any_of(wide.begin(), wide.end(), [](auto x) { return x >> 63; }));
}

TEST(Fill, RandnFloat) {
  EXPECT_EQ(values<std::uint32_t>(filled(DType::f32, 4, "randn(seed=7)")),
            (std::vector<std::uint32_t>{0x3b1bd348, 0x3e92eb00, 0x3de1c58f, 0xba526d06}));
  const auto shifted = values<float>(filled(DType::f32, 4, "randn(seed=7, 10, 2)"));
  const auto plain = values<float>(filled(DType::f32, 4, "randn(seed=7)"));
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(shifted[i], 10 + 2 * plain[i]);
}

TEST(Fill, List) {
  EXPECT_EQ(values<float>(filled(DType::f32, 4, "[1, 2.5, -3,1<<4]")),
            (std::vector<float>{1, 2.5f, -3, 16}));
  EXPECT_EQ(values<std::uint8_t>(filled(DType::u8, 2, "[0xff,0]")),
            (std::vector<std::uint8_t>{255, 0}));
}

TEST(Fill, FromNpyAndRawFiles) {
  const auto dir = test::temp_dir();
  HostBuffer source(DType::f32, {2, 2});
  const float data[] = {1, 2, 3, 4};
  std::memcpy(source.data(), data, sizeof data);
  write_npy(dir / "m.npy", source);
  // Shape may differ when the element count agrees (C-order bytes are the same).
  EXPECT_EQ(values<float>(filled(DType::f32, 4, "@m.npy", dir)), (std::vector<float>{1, 2, 3, 4}));
  std::string absolute = "@"; // built by append: GCC 12 warns falsely on "@" + string (-Wrestrict)
  absolute.append((dir / "m.npy").string());
  EXPECT_EQ(values<float>(filled(DType::f32, 4, absolute)), (std::vector<float>{1, 2, 3, 4}));
  std::ofstream(dir / "raw.bin", std::ios::binary).write("\x01\x02\x03", 3);
  EXPECT_EQ(values<std::uint8_t>(filled(DType::u8, 3, "@raw.bin", dir)),
            (std::vector<std::uint8_t>{1, 2, 3}));
  // bf16 buffers are saved as '<u2' and read back from such files.
  HostBuffer bits(DType::bf16, {1});
  const std::uint16_t one = 0x3f80;
  std::memcpy(bits.data(), &one, 2);
  write_npy(dir / "b.npy", bits);
  EXPECT_EQ(values<std::uint16_t>(filled(DType::bf16, 1, "@b.npy", dir)),
            (std::vector<std::uint16_t>{0x3f80}));
}

TEST(FillErrors, FileMismatchesNameTheArgAndBothSides) {
  const auto dir = test::temp_dir();
  write_npy(dir / "f64.npy", HostBuffer(DType::f64, {4}));
  write_npy(dir / "three.npy", HostBuffer(DType::f32, {3}));
  std::ofstream(dir / "raw.bin", std::ios::binary).write("\x01\x02\x03", 3);
  EXPECT_EQ(fill_error(DType::f32, 4, "@f64.npy", dir),
            "--arg 'x=f32[4]:@f64.npy': f64.npy holds f64 ('<f8'), the buffer is f32");
  EXPECT_EQ(fill_error(DType::f32, 4, "@three.npy", dir),
            "--arg 'x=f32[4]:@three.npy': three.npy has 3 elements, the buffer has 4");
  EXPECT_EQ(fill_error(DType::u16, 2, "@raw.bin", dir),
            "--arg 'x=u16[2]:@raw.bin': raw.bin has 3 bytes, the buffer needs 4");
  EXPECT_NE(fill_error(DType::u8, 2, "@missing.bin", dir).find("cannot read"), std::string::npos);
}

TEST(FillErrors, ListLengthMustMatch) {
  EXPECT_EQ(fill_error(DType::f32, 4, "[1,2]"),
            "--arg 'x=f32[4]:[1,2]': the list has 2 values but the buffer has 4 elements");
  EXPECT_EQ(fill_error(DType::f32, 2, "[1,,2]"),
            "--arg 'x=f32[2]:[1,,2]': empty list value at position 13");
  EXPECT_EQ(fill_error(DType::f32, 2, "[1,2"),
            "--arg 'x=f32[2]:[1,2': missing ']' at the end of the list at position 14");
  EXPECT_EQ(fill_error(DType::u8, 2, "[1,300]"),
            "--arg 'x=u8[2]:[1,300]': 300 is out of range for u8 (0 to 255) at position 12");
}

TEST(FillErrors, UnknownFillsAndBadParameters) {
  EXPECT_NE(fill_error(DType::f32, 4, "random").find("unknown fill 'random'"), std::string::npos);
  EXPECT_EQ(fill_error(DType::f32, 4, "rand"),
            "--arg 'x=f32[4]:rand': rand needs a seed: rand(seed=S) at position 14");
  EXPECT_EQ(fill_error(DType::f32, 4, "rand(7)"),
            "--arg 'x=f32[4]:rand(7)': expected seed=S as the first parameter at position 15");
  EXPECT_EQ(fill_error(DType::f32, 4, "rand(seed=-1)"),
            "--arg 'x=f32[4]:rand(seed=-1)': the seed must be between 0 and 2**64-1 at "
            "position 20");
  EXPECT_EQ(fill_error(DType::f32, 4, "rand(seed=1,2)"),
            "--arg 'x=f32[4]:rand(seed=1,2)': expected rand(seed=S) or rand(seed=S,LO,HI) at "
            "position 14");
  EXPECT_EQ(fill_error(DType::i32, 4, "rand(seed=1,5,2)"),
            "--arg 'x=i32[4]:rand(seed=1,5,2)': rand needs LO <= HI at position 22");
  EXPECT_EQ(fill_error(DType::i32, 4, "randn(seed=1)"),
            "--arg 'x=i32[4]:randn(seed=1)': randn needs a floating-point buffer, not i32 at "
            "position 10");
  EXPECT_NE(fill_error(DType::f32, 4, "randn(seed=1,0,-1)").find("STD >= 0"), std::string::npos);
  EXPECT_NE(fill_error(DType::f32, 4, "iota(1)").find("iota takes (START,STEP)"),
            std::string::npos);
  EXPECT_NE(fill_error(DType::f32, 4, "iota(1,2").find("missing ')'"), std::string::npos);
  EXPECT_EQ(fill_error(DType::u8, 4, "256"),
            "--arg 'x=u8[4]:256': 256 is out of range for u8 (0 to 255) at position 9");
  EXPECT_EQ(fill_error(DType::i32, 4, "1.5"),
            "--arg 'x=i32[4]:1.5': expected an integer, found a floating-point number at "
            "position 10");
  EXPECT_EQ(fill_error(DType::f32, 4, ""),
            "--arg 'x=f32[4]:': expected a fill (zeros uninit ones CONST "
            "iota iota(START,STEP) rand(seed=S[,LO,HI]) "
            "randn(seed=S[,MEAN,STD]) [v,...] @PATH) at position 10");
}

} // namespace
} // namespace gpurun
