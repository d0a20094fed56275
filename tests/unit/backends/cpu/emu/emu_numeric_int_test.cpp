// Integer and bit operations of backends/cpu/emu/numeric.hpp, pinned to PTX's defined results:
// division by zero, overflow, shift clamping, wide/high multiplies, bit-field and byte-permute
// instructions, carry chains and integer setp.
#include "backends/cpu/emu/numeric.hpp"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace {
using namespace gpurun::emu::numeric;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using i64 = std::int64_t;
using u64 = std::uint64_t;
constexpr i32 int_min = std::numeric_limits<i32>::min();
constexpr i32 int_max = std::numeric_limits<i32>::max();

TEST(NumericInt, DivisionByZeroDoesNotTrap) {
  EXPECT_EQ(idiv<u32>(7, 0), 0xffffffffu);
  EXPECT_EQ(idiv<u64>(7, 0), ~u64{0});
  EXPECT_EQ(idiv<i32>(5, 0), -1);
  EXPECT_EQ(idiv<i32>(-5, 0), -1); // as the H200 computes it
  EXPECT_EQ(irem<u32>(7, 0), 7u);
  EXPECT_EQ(irem<i32>(-7, 0), -7);
  EXPECT_EQ(irem<i64>(9, 0), 9);
}

TEST(NumericInt, SignedOverflowCases) {
  EXPECT_EQ(idiv<i32>(int_min, -1), int_min);
  EXPECT_EQ(irem<i32>(int_min, -1), 0);
  EXPECT_EQ(idiv<i64>(std::numeric_limits<i64>::min(), -1), std::numeric_limits<i64>::min());
  EXPECT_EQ(iabs<i32>(int_min), int_min);
  EXPECT_EQ(ineg<i32>(int_min), int_min);
  EXPECT_EQ(iadd<i32>(int_max, 1), int_min);
  EXPECT_EQ(isub<u32>(0, 1), 0xffffffffu);
}

TEST(NumericInt, DivisionTruncatesTowardZero) {
  EXPECT_EQ(idiv<i32>(-7, 2), -3);
  EXPECT_EQ(irem<i32>(-7, 2), -1);
  EXPECT_EQ(irem<i32>(7, -2), 1);
  EXPECT_EQ(idiv<i32>(7, -2), -3);
  EXPECT_EQ(idiv<std::int16_t>(-32768, -1), -32768);
  EXPECT_EQ(idiv<u32>(0xffffffffu, 16), 0x0fffffffu);
}

TEST(NumericInt, SaturatingAddSub) {
  EXPECT_EQ(add_sat(int_max, 1), int_max);
  EXPECT_EQ(add_sat(int_min, -1), int_min);
  EXPECT_EQ(add_sat(5, -7), -2);
  EXPECT_EQ(sub_sat(int_min, 1), int_min);
  EXPECT_EQ(sub_sat(int_max, -1), int_max);
}

TEST(NumericInt, ShiftAmountsBeyondWidthClamp) {
  EXPECT_EQ(shl<u32>(1, 31), 0x80000000u);
  EXPECT_EQ(shl<u32>(1, 32), 0u);
  EXPECT_EQ(shl<u32>(1, 33), 0u);
  EXPECT_EQ(shl<u32>(1, 255), 0u);
  EXPECT_EQ(shr<u32>(0x80000000u, 31), 1u);
  EXPECT_EQ(shr<u32>(0x80000000u, 32), 0u);
  EXPECT_EQ(shr<i32>(-8, 1), -4);
  EXPECT_EQ(shr<i32>(-8, 32), -1);
  EXPECT_EQ(shr<i32>(-8, 0xffffffffu), -1);
  EXPECT_EQ(shr<i32>(8, 255), 0);
  EXPECT_EQ(shl<u64>(1, 63), u64{1} << 63);
  EXPECT_EQ(shl<u64>(1, 64), 0u);
  EXPECT_EQ(shr<i64>(std::numeric_limits<i64>::min(), 100), -1);
  EXPECT_EQ(shl<std::uint16_t>(1, 16), 0);
}

TEST(NumericInt, HighAndWideMultiplies) {
  EXPECT_EQ(mul_hi<u32>(0xffffffffu, 0xffffffffu), 0xfffffffeu);
  EXPECT_EQ(mul_hi<i32>(-1, -1), 0);
  EXPECT_EQ(mul_hi<i32>(int_min, 2), -1);
  EXPECT_EQ(mul_hi<u64>(u64{1} << 63, 4), 2u);
  EXPECT_EQ(mul_hi<i64>(-1, 1), -1);
  EXPECT_EQ(mul_hi<i64>(std::numeric_limits<i64>::min(), std::numeric_limits<i64>::min()),
            i64{1} << 62);
  EXPECT_EQ(mul_wide<i32>(-2, 3), -6);
  EXPECT_EQ(mul_wide<u32>(0xffffffffu, 0xffffffffu), 0xfffffffe00000001ull);
  EXPECT_EQ(mul_wide<std::int16_t>(-32768, -32768), i32{1} << 30);
  EXPECT_EQ(mul_wide<std::uint16_t>(0xffff, 0xffff), 0xfffe0001u);
  EXPECT_EQ(mul_lo<i32>(0x10000, 0x10000), 0);
  EXPECT_EQ(mul_lo<u64>(u64{1} << 40, u64{1} << 30), 0u);
}

TEST(NumericInt, MadVariants) {
  EXPECT_EQ(mad_lo<i32>(3, 4, -20), -8);
  EXPECT_EQ(mad_hi<u32>(0x80000000u, 4, 5), 7u);
  EXPECT_EQ(mad_wide<u32>(0xffffffffu, 2, 3), 0x200000001ull);
  EXPECT_EQ(mad_wide<i32>(-1, 5, 10), 5);
  EXPECT_EQ(mad_hi_sat(int_max, int_max, int_max), int_max); // hi = 0x3fffffff, sum overflows
  EXPECT_EQ(mad_hi_sat(int_min, int_max, int_min), int_min); // hi < 0, sum underflows
  EXPECT_EQ(mad_hi_sat(0x40000000, 8, 1), 3);
}

TEST(NumericInt, Mul24UsesLow24BitsOnly) {
  EXPECT_EQ(mul24_lo<u32>(0x01000003u, 5), 15u); // bit 24 is ignored
  EXPECT_EQ(mul24_hi<u32>(0xffffffu, 0xffffffu), 0xfffffe00u);
  EXPECT_EQ(mul24_lo<i32>(0x800000, 2), static_cast<i32>(0xff000000u)); // -2^23 * 2
  EXPECT_EQ(mul24_hi<i32>(0x800000, 0x800000), 0x40000000);             // 2^46 >> 16
  EXPECT_EQ(mad24_lo<u32>(2, 3, 4), 10u);
  EXPECT_EQ(mad24_hi<u32>(0xffffffu, 0xffffffu, 1), 0xfffffe01u);
}

TEST(NumericInt, AbsNegMinMaxSad) {
  EXPECT_EQ(iabs<i32>(-5), 5);
  EXPECT_EQ(ineg<i64>(5), -5);
  EXPECT_EQ(imin<u32>(0xffffffffu, 1u), 1u);
  EXPECT_EQ(imin<i32>(-1, 1), -1);
  EXPECT_EQ(imax<std::int16_t>(-3, -4), -3);
  EXPECT_EQ(sad<u32>(3, 10, 100), 107u);
  EXPECT_EQ(sad<i32>(-5, 5, 0), 10);
  EXPECT_EQ(sad<u32>(10, 3, 0), 7u);
}

TEST(NumericInt, PopcClzBrev) {
  EXPECT_EQ(clz<u32>(0), 32u);
  EXPECT_EQ(clz<u32>(1), 31u);
  EXPECT_EQ(clz<u64>(0), 64u);
  EXPECT_EQ(clz<i32>(-1), 0u);
  EXPECT_EQ(popc<u32>(0xf0f0f0f0u), 16u);
  EXPECT_EQ(popc<u64>(~u64{0}), 64u);
  EXPECT_EQ(brev<u32>(1), 0x80000000u);
  EXPECT_EQ(brev<u32>(0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(brev<u64>(1), u64{1} << 63);
}

TEST(NumericInt, BfindAndShiftAmount) {
  EXPECT_EQ(bfind<u32>(0, false), 0xffffffffu);
  EXPECT_EQ(bfind<u32>(1, false), 0u);
  EXPECT_EQ(bfind<u32>(0x80000000u, false), 31u);
  EXPECT_EQ(bfind<u32>(1, true), 31u);
  EXPECT_EQ(bfind<u32>(0, true), 0xffffffffu);
  EXPECT_EQ(bfind<i32>(-1, false), 0xffffffffu);
  EXPECT_EQ(bfind<i32>(-2, false), 0u);
  EXPECT_EQ(bfind<i32>(0x40000000, false), 30u);
  EXPECT_EQ(bfind<i32>(int_min, false), 30u);
  EXPECT_EQ(bfind<u64>(u64{1} << 40, false), 40u);
}

TEST(NumericInt, BfeExtractsAndSignExtends) {
  EXPECT_EQ(bfe<u32>(0xf0u, 4, 4), 0xfu);
  EXPECT_EQ(bfe<i32>(0xf0, 4, 4), -1);
  EXPECT_EQ(bfe<i32>(0x70, 4, 4), 7);
  EXPECT_EQ(bfe<u32>(0xffffffffu, 4, 0), 0u);
  EXPECT_EQ(bfe<i32>(-1, 4, 0), 0); // len 0 gives 0 even for signed
  EXPECT_EQ(bfe<u32>(0x80000000u, 40, 4), 0u);
  EXPECT_EQ(bfe<i32>(int_min, 40, 4), -1); // start beyond msb: replicated sign bit a[31]
  EXPECT_EQ(bfe<i32>(int_min, 28, 8), static_cast<i32>(0xfffffff8u));
  EXPECT_EQ(bfe<u32>(0xabcdu, 0x104, 4), 0xcu); // only the low 8 bits of pos are used
  EXPECT_EQ(bfe<u32>(0xabcdu, 0, 0x120), 0xabcdu);
  EXPECT_EQ(bfe<i64>(i64{1} << 40, 40, 1), -1);
  EXPECT_EQ(bfe<u64>(0xff00000000ull, 32, 8), 0xffu);
}

TEST(NumericInt, BfiInsertsWithClamping) {
  EXPECT_EQ(bfi<u32>(0xf, 0, 4, 4), 0xf0u);
  EXPECT_EQ(bfi<u32>(0xf, 0x12345678u, 4, 0), 0x12345678u);
  EXPECT_EQ(bfi<u32>(0xf, 0x12345678u, 32, 4), 0x12345678u);
  EXPECT_EQ(bfi<u32>(0xff, 0, 28, 8), 0xf0000000u);
  EXPECT_EQ(bfi<u32>(0, 0xffffffffu, 8, 8), 0xffff00ffu);
  EXPECT_EQ(bfi<u64>(1, 0, 63, 1), u64{1} << 63);
}

TEST(NumericInt, PrmtGenericAndSignReplication) {
  const u32 a = 0x03020100u;
  const u32 b = 0x07060504u;
  EXPECT_EQ(prmt(a, b, 0x7531u, PrmtMode::generic), 0x07050301u);
  EXPECT_EQ(prmt(a, b, 0x3210u, PrmtMode::generic), a);
  EXPECT_EQ(prmt(a, b, 0x7654u, PrmtMode::generic), b);
  EXPECT_EQ(prmt(0x80u, 0, 0x0008u, PrmtMode::generic), 0x808080ffu); // msb of selector: sign
  EXPECT_EQ(prmt(0x7fu, 0, 0x0008u, PrmtMode::generic), 0x7f7f7f00u);
  EXPECT_EQ(prmt(0x80u, 0, 0x0000u, PrmtMode::generic), 0x80808080u);
}

TEST(NumericInt, PrmtSpecialModes) {
  const u32 a = 0x03020100u; // byte value = byte index, so results spell the selectors
  const u32 b = 0x07060504u;
  EXPECT_EQ(prmt(a, b, 1, PrmtMode::f4e), 0x04030201u);
  EXPECT_EQ(prmt(a, b, 3, PrmtMode::f4e), 0x06050403u);
  EXPECT_EQ(prmt(a, b, 0, PrmtMode::b4e), 0x05060700u);
  EXPECT_EQ(prmt(a, b, 3, PrmtMode::b4e), 0x00010203u);
  EXPECT_EQ(prmt(a, b, 2, PrmtMode::rc8), 0x02020202u);
  EXPECT_EQ(prmt(a, b, 1, PrmtMode::ecl), 0x03020101u);
  EXPECT_EQ(prmt(a, b, 2, PrmtMode::ecr), 0x02020100u);
  EXPECT_EQ(prmt(a, b, 1, PrmtMode::rc16), 0x03020302u);
  EXPECT_EQ(prmt(a, b, 0x80u | 2u, PrmtMode::rc16), 0x01000100u); // only c[1:0] matters
}

TEST(NumericInt, Lop3TruthTables) {
  const u32 a = 0xf0f0f0f0u;
  const u32 b = 0xccccccccu;
  const u32 c = 0xaaaaaaaau;
  EXPECT_EQ(lop3(a, b, c, 0xf0), a);
  EXPECT_EQ(lop3(a, b, c, 0xcc), b);
  EXPECT_EQ(lop3(a, b, c, 0xaa), c);
  EXPECT_EQ(lop3(a, b, c, 0x96), a ^ b ^ c);
  EXPECT_EQ(lop3(a, b, c, 0xe8), (a & b) | (a & c) | (b & c));
  EXPECT_EQ(lop3(0x12345678u, 0x9abcdef0u, 0x0f0f0f0fu, 0x80),
            0x12345678u & 0x9abcdef0u & 0x0f0f0f0fu);
  EXPECT_EQ(lop3(1, 2, 3, 0x00), 0u);
  EXPECT_EQ(lop3(1, 2, 3, 0xff), 0xffffffffu);
}

TEST(NumericInt, FunnelShifts) {
  EXPECT_EQ(shf_l(0x80000000u, 0x1u, 1, ShfMode::wrap), 3u);
  EXPECT_EQ(shf_l(0x80000000u, 0x1u, 33, ShfMode::wrap), 3u);
  EXPECT_EQ(shf_l(0x80000000u, 0x1u, 40, ShfMode::clamp), 0x80000000u);
  EXPECT_EQ(shf_l(0x80000000u, 0x1u, 0, ShfMode::clamp), 1u);
  EXPECT_EQ(shf_r(0x1u, 0x80000001u, 1, ShfMode::clamp), 0x80000000u);
  EXPECT_EQ(shf_r(0x1u, 0x80000001u, 32, ShfMode::clamp), 0x80000001u);
  EXPECT_EQ(shf_r(0x1u, 0x80000001u, 32, ShfMode::wrap), 0x1u);
  EXPECT_EQ(shf_r(0x12345678u, 0x9abcdef0u, 8, ShfMode::wrap), 0xf0123456u);
}

TEST(NumericInt, DotProducts) {
  EXPECT_EQ(dp4a(0x01020304u, 0x01010101u, 10, false, false), 20u);
  EXPECT_EQ(static_cast<i32>(dp4a(0xffffffffu, 0x02020202u, 0, true, true)), -8);
  EXPECT_EQ(static_cast<i32>(dp4a(0x000000ffu, 0x000000ffu, 0, false, true)), -255);
  EXPECT_EQ(dp4a(0x000000ffu, 0x000000ffu, 0, false, false), 65025u);
  EXPECT_EQ(dp2a(0x00020003u, 0x00000705u, 1, false, false, false), 30u); // 3*5 + 2*7 + 1
  EXPECT_EQ(dp2a(0x00020003u, 0x07050000u, 0, false, false, true), 29u);
  EXPECT_EQ(static_cast<i32>(dp2a(0xffff0001u, 0x00000202u, 0, true, false, false)), 0);
}

TEST(NumericInt, CarryChains) {
  const auto lo = add_cc<u32>(0xffffffffu, 1, false);
  EXPECT_EQ(lo.value, 0u);
  EXPECT_TRUE(lo.carry);
  const auto hi = add_cc<u32>(0, 0, lo.carry);
  EXPECT_EQ(hi.value, 1u);
  EXPECT_FALSE(hi.carry);
  const auto w = add_cc<u64>(~u64{0}, ~u64{0}, true);
  EXPECT_EQ(w.value, ~u64{0});
  EXPECT_TRUE(w.carry);
  const auto s = sub_cc<u32>(0, 1, false);
  EXPECT_EQ(s.value, 0xffffffffu);
  EXPECT_TRUE(s.carry);
  const auto s2 = sub_cc<u32>(5, 2, true);
  EXPECT_EQ(s2.value, 2u);
  EXPECT_FALSE(s2.carry);
  const auto s3 = sub_cc<u32>(1, 1, true);
  EXPECT_EQ(s3.value, 0xffffffffu);
  EXPECT_TRUE(s3.carry);
}

TEST(NumericInt, SelectsAndLogic) {
  EXPECT_EQ(slct<u32>(1, 2, 0), 1u);
  EXPECT_EQ(slct<u32>(1, 2, -1), 2u);
  EXPECT_EQ(slct<u32>(1, 2, -0.0f, false), 1u);
  EXPECT_EQ(slct<u32>(1, 2, std::nanf(""), false), 2u);
  EXPECT_EQ(slct<u32>(1, 2, f32_from_bits(0x80000001u), false), 2u);
  EXPECT_EQ(slct<u32>(1, 2, f32_from_bits(0x80000001u), true), 1u); // flushed to -0
  EXPECT_EQ(selp<u32>(7, 9, true), 7u);
  EXPECT_EQ(selp<u32>(7, 9, false), 9u);
  EXPECT_EQ(cnot<u32>(0), 1u);
  EXPECT_EQ(cnot<u32>(5), 0u);
  EXPECT_EQ(bit_not<std::uint16_t>(0x00ff), 0xff00);
  EXPECT_EQ(bit_xor<u32>(0xff, 0x0f), 0xf0u);
}

TEST(NumericInt, IntegerSetpAndCombine) {
  EXPECT_TRUE(compare<i32>(Cmp::lt, -1, 0));
  EXPECT_FALSE(compare<i32>(Cmp::lo, -1, 0)); // unsigned view: 0xffffffff
  EXPECT_TRUE(compare<i32>(Cmp::hi, -1, 0));
  EXPECT_TRUE(compare<u32>(Cmp::hs, 5, 5));
  EXPECT_TRUE(compare<u32>(Cmp::ls, 4, 5));
  EXPECT_FALSE(compare<u32>(Cmp::gt, 4, 5));
  EXPECT_TRUE(compare<u64>(Cmp::ne, 1, 2));
  EXPECT_TRUE(compare<i64>(Cmp::ge, 3, 3));
  EXPECT_TRUE(combine(BoolOp::and_, true, true));
  EXPECT_FALSE(combine(BoolOp::and_, true, false));
  EXPECT_TRUE(combine(BoolOp::or_, false, true));
  EXPECT_FALSE(combine(BoolOp::xor_, true, true));
  EXPECT_TRUE(combine(BoolOp::none, true, false));
}

} // namespace
