#include "base/format.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace gpurun {
namespace {

// Expected strings are what NumPy 1.24's str(array) prints for the same data.

template <typename T>
HostBuffer make(DType type, std::vector<std::size_t> shape, const std::vector<T>& data) {
  HostBuffer b(type, std::move(shape));
  EXPECT_EQ(b.size_bytes(), data.size() * sizeof(T));
  std::memcpy(b.data(), data.data(), b.size_bytes());
  return b;
}

template <typename T> std::vector<T> iota(std::size_t n, T start = 0, T step = 1) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = start + static_cast<T>(i) * step;
  return v;
}

TEST(Format, ShortIntegersRightAligned) {
  EXPECT_EQ(format_buffer(make(DType::i32, {20}, iota<std::int32_t>(20))),
            "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19]");
  EXPECT_EQ(format_buffer(make<std::int8_t>(DType::i8, {3}, {-1, 10, 100})), "[ -1  10 100]");
  EXPECT_EQ(format_buffer(make<std::uint64_t>(DType::u64, {2}, {UINT64_MAX, 0})),
            "[18446744073709551615                    0]");
}

TEST(Format, LongBuffersAreElided) {
  EXPECT_EQ(format_buffer(make(DType::i32, {2000}, iota<std::int32_t>(2000))),
            "[   0    1    2 ... 1997 1998 1999]");
  EXPECT_EQ(format_buffer(make(DType::i32, {20}, iota<std::int32_t>(20)), 3, 10),
            "[ 0  1  2 ... 17 18 19]");
  EXPECT_EQ(format_buffer(make(DType::i32, {1600}, iota<std::int32_t>(40 * 40)), 2),
            "[   0    1 ... 1598 1599]");
}

TEST(Format, FloatsLikeNumPy) {
  EXPECT_EQ(format_buffer(make(DType::f32, {20}, iota<float>(20))),
            "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n 18. 19.]");
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {2}, {0.5f, 1.25f})), "[0.5  1.25]");
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {3}, {0, 0, 0})), "[0. 0. 0.]");
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {3}, {0.1f, 0.2f, 0.3f})), "[0.1 0.2 0.3]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {1.0 / 3, 2})), "[0.33333333 2.        ]");
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {2}, {1.0f / 3, 2})), "[0.33333334 2.        ]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {-0.0, 1})), "[-0.  1.]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {0.001953125, 1})),
            "[0.00195312 1.        ]");
}

TEST(Format, FloatsRoundedToEightDecimals) {
  // The first four values of f32[4]:rand(seed=7).
  EXPECT_EQ(format_buffer(make<std::uint32_t>(DType::f32, {4},
                                              {0x3f74607a, 0x3ed05d1c, 0x3bc71180, 0x3ec7c82c})),
            "[0.9545971  0.40696037 0.00607508 0.39019907]");
}

TEST(Format, ScientificWhenMagnitudesDiffer) {
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {1e10, 1.5})), "[1.0e+10 1.5e+00]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {-1e10, 1.5})), "[-1.0e+10  1.5e+00]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {1e-5, 1})), "[1.e-05 1.e+00]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {1e100, 1.5})), "[1.0e+100 1.5e+000]");
  EXPECT_EQ(format_buffer(make<double>(DType::f64, {2}, {123456.789, 0.5})),
            "[1.23456789e+05 5.00000000e-01]");
}

TEST(Format, NonFiniteValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {3}, {nan, 1.5f, -inf})), "[ nan  1.5 -inf]");
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {2}, {nan, nan})), "[nan nan]");
}

TEST(Format, HalfAndBFloat16PrintAsNumbers) {
  // f16 0.1, 2, 65504: shortest digits for f16 ("6.55e+04"), scientific since the ratio > 1000.
  EXPECT_EQ(format_buffer(make<std::uint16_t>(DType::f16, {3}, {0x2e66, 0x4000, 0x7bff})),
            "[1.00e-01 2.00e+00 6.55e+04]");
  EXPECT_EQ(format_buffer(make<std::uint16_t>(DType::bf16, {3}, {0x3f80, 0x3fc0, 0xc020})),
            "[ 1.   1.5 -2.5]");
}

TEST(Format, NestedArrays) {
  EXPECT_EQ(format_buffer(make<float>(DType::f32, {2, 2}, {1, 2, 3, 4})), "[[1. 2.]\n [3. 4.]]");
  EXPECT_EQ(format_buffer(make(DType::i32, {2, 2, 2}, iota<std::int32_t>(8))),
            "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
  EXPECT_EQ(format_buffer(make(DType::i32, {40, 40}, iota<std::int32_t>(1600))),
            "[[   0    1    2 ...   37   38   39]\n"
            " [  40   41   42 ...   77   78   79]\n"
            " [  80   81   82 ...  117  118  119]\n"
            " ...\n"
            " [1480 1481 1482 ... 1517 1518 1519]\n"
            " [1520 1521 1522 ... 1557 1558 1559]\n"
            " [1560 1561 1562 ... 1597 1598 1599]]");
}

TEST(Format, WrapsLongRows) {
  EXPECT_EQ(format_buffer(make(DType::f32, {30}, iota<float>(30, 0, 1.5f))),
            "[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n"
            " 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n"
            " 42.  43.5]");
}

TEST(Format, EmptyAndScalar) {
  EXPECT_EQ(format_buffer(HostBuffer(DType::f32, {0})), "[]");
  EXPECT_EQ(format_buffer(make<std::int32_t>(DType::i32, {}, {42})), "42");
}

TEST(Format, BufferTypeTextNamesTheTypeAndEveryDimension) {
  EXPECT_EQ(buffer_type_text(HostBuffer(DType::f32, {20})), "f32[20]");
  EXPECT_EQ(buffer_type_text(HostBuffer(DType::i32, {2, 3})), "i32[2,3]");
  EXPECT_EQ(buffer_type_text(HostBuffer(DType::u8, {1, 2, 3})), "u8[1,2,3]");
  EXPECT_EQ(buffer_type_text(HostBuffer(DType::f64, {})), "f64[]");
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

TEST(FormatDuration, PicksAUnitWithFourSignificantDigits) {
  EXPECT_EQ(format_duration(0), "0 s");
  EXPECT_EQ(format_duration(512e-9), "512 ns");
  EXPECT_EQ(format_duration(12.3456e-6), "12.35 µs");
  EXPECT_EQ(format_duration(1.2345e-3), "1.234 ms");
  EXPECT_EQ(format_duration(2.5), "2.5 s");
  EXPECT_EQ(format_duration(-2e-3), "-2 ms");
}

TEST(ByteSize, BinaryUnitsWithThreeSignificantDigits) {
  EXPECT_EQ(byte_size(0), "0 bytes");
  EXPECT_EQ(byte_size(1), "1 byte");
  EXPECT_EQ(byte_size(1023), "1023 bytes");
  EXPECT_EQ(byte_size(1024), "1.00 KiB");
  EXPECT_EQ(byte_size(64320), "62.8 KiB");
  EXPECT_EQ(byte_size(1536 * 1024), "1.50 MiB");
  EXPECT_EQ(byte_size(1048575), "1.00 MiB");
  EXPECT_EQ(byte_size(150'000'000'000ULL), "140 GiB");
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

TEST(FormatCount, SeparatorsForWholeNumbersAndSiPrefixesForTheRest) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(81912), "81,912");
  EXPECT_EQ(format_count(1234567), "1,234,567");
  EXPECT_EQ(format_count(-1234), "-1,234");
  EXPECT_EQ(format_count(0.5), "0.5");
  EXPECT_EQ(format_si(1.8e6), "1.80 M");
  EXPECT_EQ(format_si(3254), "3.25 k");
  EXPECT_EQ(format_si(999.4), "999");
  EXPECT_EQ(format_si(123e9), "123 G");
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

TEST(KernelNames, SymbolsBecomeTheNamesAuthorsWrote) {
  EXPECT_EQ(kernel_name("_Z23softmax_forward_kernel4PfPKfi"), "softmax_forward_kernel4");
  EXPECT_EQ(kernel_name("_Z5saxpyIfEvT_PKS0_PS0_i"), "saxpy<float>");
  EXPECT_EQ(kernel_name("_ZN2ns5scaleEPfi"), "ns::scale");
  EXPECT_EQ(kernel_name("scalar_add"), "scalar_add");
  EXPECT_EQ(kernel_name("_Znot_a_symbol"), "_Znot_a_symbol");
}

TEST(KernelNames, EverySymbolInAMessage) {
  EXPECT_EQ(with_kernel_names("kernel '_Z23softmax_forward_kernel4PfPKfi' made an out-of-bounds "
                              "write; _Z5saxpyIfEvT_PKS0_PS0_i too"),
            "kernel 'softmax_forward_kernel4' made an out-of-bounds write; saxpy<float> too");
  EXPECT_EQ(with_kernel_names("x_Z3fooPf stays"), "x_Z3fooPf stays");
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

TEST(CStringLiteral, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(c_string_literal("dir/k.cu"), "\"dir/k.cu\"");
  EXPECT_EQ(c_string_literal("a \"b\"\\c"), "\"a \\\"b\\\"\\\\c\"");
}

TEST(ReplaceAll, EveryOccurrenceAndNothingForAnEmptyPattern) {
  std::string text = "/tmp/x/a /tmp/x/b";
  replace_all(text, "/tmp/x/", "");
  EXPECT_EQ(text, "a b");
  replace_all(text, "", "z");
  EXPECT_EQ(text, "a b");
  std::string grow = "aa";
  replace_all(grow, "a", "aa");
  EXPECT_EQ(grow, "aaaa");
}

} // namespace
} // namespace gpurun
