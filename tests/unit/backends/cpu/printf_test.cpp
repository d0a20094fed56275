// Device printf: exact text for many conversions, and CUDA's argument packing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cpu/emu/printf.hpp"

namespace gpurun::emu {
namespace {

constexpr std::uint64_t kArgsBase = 0x10000;
constexpr std::uint64_t kStringsBase = 0x20000;

// A fake device: an argument buffer packed the way NVRTC packs it, and a string area.
class Device {
public:
  Device& i32(std::int32_t v) { return put(&v, 4); }
  Device& u32(std::uint32_t v) { return put(&v, 4); }
  Device& i64(std::int64_t v) { return put(&v, 8); }
  Device& f64(double v) { return put(&v, 8); }
  Device& ptr(std::uint64_t v) { return put(&v, 8); }
  /// Stores `s` (with its NUL) in the string area and packs its address.
  Device& str(const std::string& s) {
    const std::uint64_t address = kStringsBase + m_strings.size();
    m_strings.insert(m_strings.end(), s.begin(), s.end());
    m_strings.push_back(0);
    return ptr(address);
  }
  /// Stores bytes without a NUL and packs their address.
  Device& raw_bytes(const std::string& s) {
    const std::uint64_t address = kStringsBase + m_strings.size();
    m_strings.insert(m_strings.end(), s.begin(), s.end());
    return ptr(address);
  }

  [[nodiscard]] std::string format(std::string_view fmt) const {
    return format_device_printf(fmt, reader(), kArgsBase);
  }
  [[nodiscard]] DeviceReader reader() const {
    return [this](std::uint64_t addr, void* out, std::size_t n) {
      if (addr >= kArgsBase && addr + n <= kArgsBase + m_args.size()) {
        std::memcpy(out, m_args.data() + (addr - kArgsBase), n);
      } else if (addr >= kStringsBase && addr + n <= kStringsBase + m_strings.size()) {
        std::memcpy(out, m_strings.data() + (addr - kStringsBase), n);
      } else {
        throw std::out_of_range("fault at " + std::to_string(addr));
      }
    };
  }
  [[nodiscard]] std::size_t args_size() const { return m_args.size(); }

private:
  Device& put(const void* v, std::size_t n) {
    while (m_args.size() % n != 0) {
      m_args.push_back(0xCD); // padding garbage must never be read as a value
    }
    const auto* b = static_cast<const std::uint8_t*>(v);
    m_args.insert(m_args.end(), b, b + n);
    return *this;
  }

  std::vector<std::uint8_t> m_args;
  std::vector<std::uint8_t> m_strings;
};

TEST(DevicePrintf, PlainTextAndPercent) {
  Device d;
  EXPECT_EQ(d.format("hello\n"), "hello\n");
  EXPECT_EQ(d.format("100%% sure"), "100% sure");
  EXPECT_EQ(d.format(""), "");
}

TEST(DevicePrintf, Integers) {
  EXPECT_EQ(Device().i32(-42).format("%d"), "-42");
  EXPECT_EQ(Device().i32(42).format("[%5d]"), "[   42]");
  EXPECT_EQ(Device().i32(42).format("[%-5d]"), "[42   ]");
  EXPECT_EQ(Device().i32(42).format("[%05d]"), "[00042]");
  EXPECT_EQ(Device().i32(42).format("[%+d]"), "[+42]");
  EXPECT_EQ(Device().i32(42).format("[% d]"), "[ 42]");
  EXPECT_EQ(Device().i32(7).format("[%.3d]"), "[007]");
  EXPECT_EQ(Device().i32(-1).format("%u"), "4294967295");
  EXPECT_EQ(Device().u32(255).format("%#x"), "0xff");
}

TEST(DevicePrintf, EachConversionConsumesItsOwnArgument) {
  Device d;
  d.u32(255).u32(255).u32(255).u32(8).u32(8);
  EXPECT_EQ(d.format("%x %X %#x %o %#o"), "ff FF 0xff 10 010");
  EXPECT_EQ(Device().i32(65).i32(-7).format("%c%i"), "A-7");
}

TEST(DevicePrintf, LengthModifiers) {
  EXPECT_EQ(Device().i32(70000).format("%hd"), "4464"); // 70000 as short
  EXPECT_EQ(Device().i32(300).format("%hhu"), "44");
  EXPECT_EQ(Device().i32(-1).format("%hhx"), "ff");
  EXPECT_EQ(Device().i64(-5000000000LL).format("%ld"), "-5000000000");
  EXPECT_EQ(Device().i64(-1).format("%llu"), "18446744073709551615");
  EXPECT_EQ(Device().i64(1LL << 40).format("%zu"), "1099511627776");
  Device three;
  three.i64(1).i64(2).i64(3);
  EXPECT_EQ(three.format("%zu %jd %td"), "1 2 3");
  EXPECT_EQ(Device().i64(0x1234567890ABLL).format("%llX"), "1234567890AB");
}

TEST(DevicePrintf, FloatingPoint) {
  EXPECT_EQ(Device().f64(3.14159).format("%f"), "3.141590");
  EXPECT_EQ(Device().f64(3.14159).format("%.2f"), "3.14");
  EXPECT_EQ(Device().f64(-1.5).format("[%8.3f]"), "[  -1.500]");
  EXPECT_EQ(Device().f64(1.5).format("[%-8.1f]"), "[1.5     ]");
  EXPECT_EQ(Device().f64(12345.678).format("%e"), "1.234568e+04");
  EXPECT_EQ(Device().f64(12345.678).format("%E"), "1.234568E+04");
  EXPECT_EQ(Device().f64(0.0001).format("%g"), "0.0001");
  EXPECT_EQ(Device().f64(1e-5).format("%G"), "1E-05");
  EXPECT_EQ(Device().f64(1.0).format("%a"), "0x1p+0");
  EXPECT_EQ(Device().f64(1.0 / 0.0).format("%f"), "inf");
  EXPECT_EQ(Device().f64(-1.0 / 0.0).format("%F"), "-INF");
  EXPECT_EQ(Device().f64(2.0).format("%#.0f"), "2.");
  EXPECT_EQ(Device().f64(2.5).format("%lf"), "2.500000");
  EXPECT_EQ(Device().f64(2.5).format("%Lf"), "2.500000");
  EXPECT_EQ(Device().f64(-0.0).format("%+.1f"), "-0.0");
}

TEST(DevicePrintf, StringsAndPointers) {
  EXPECT_EQ(Device().str("world").format("hello %s!"), "hello world!");
  Device two;
  two.str("ab").str("cd");
  EXPECT_EQ(two.format("[%5s][%-4s]"), "[   ab][cd  ]");
  EXPECT_EQ(Device().str("abcdef").format("%.3s"), "abc");
  // With a precision the string needs no NUL within reach, as in C.
  EXPECT_EQ(Device().raw_bytes("xyz").format("%.2s"), "xy");
  EXPECT_EQ(Device().ptr(0).format("%s"), "(null)");
  EXPECT_EQ(Device().ptr(0x7f00deadbeefULL).format("%p"), "0x7f00deadbeef");
  EXPECT_EQ(Device().str("").format("[%s]"), "[]");
}

TEST(DevicePrintf, MixedArgumentsAreNaturallyAligned) {
  // int (4) then double (8, at offset 8 after padding), then int (4 at 16), then pointer (8 at 24),
  // then char (4 at 32), then long (8 at 40): the layout NVRTC's depot uses.
  Device d;
  d.i32(1).f64(2.5).i32(3).str("four").i32('5').i64(6);
  ASSERT_EQ(d.args_size(), 48u);
  EXPECT_EQ(d.format("%d %.1f %d %s %c %ld"), "1 2.5 3 four 5 6");
}

TEST(DevicePrintf, ThreadIndexLineLikeTheSeedKernel) {
  Device d;
  d.i32(1).i32(0).i32(2).i32(31).i32(0).i32(0).i32(95);
  EXPECT_EQ(d.format("block (%d,%d,%d) thread (%d,%d,%d) global %d\n"),
            "block (1,0,2) thread (31,0,0) global 95\n");
}

TEST(DevicePrintf, UnsupportedConversionsAreCopiedAndConsumeNothing) {
  EXPECT_EQ(Device().i32(5).format("%*d|%d"), "%*d|5");
  EXPECT_EQ(Device().i32(5).format("%.*f|%d"), "%.*f|5");
  EXPECT_EQ(Device().i32(5).format("%n|%d"), "%n|5");
  EXPECT_EQ(Device().i32(5).format("%y|%d"), "%y|5");
  EXPECT_EQ(Device().i32(5).format("%d|%"), "5|%");
  EXPECT_EQ(Device().i32(5).format("%d|%5"), "5|%5");
  EXPECT_EQ(Device().i32(5).format("%Ld|%d"), "%Ld|5");
}

TEST(DevicePrintf, WideOutputIsNotTruncated) {
  const std::string text = Device().i32(7).format("%300d");
  ASSERT_EQ(text.size(), 300u);
  EXPECT_EQ(text.back(), '7');
  EXPECT_EQ(text.find_first_not_of(' '), 299u);
}

TEST(DevicePrintf, BadArgumentAddressPropagatesTheReadersError) {
  Device d;
  EXPECT_THROW((void)d.format("%d"), std::out_of_range);
  Device bad_string;
  bad_string.ptr(0x999999);
  EXPECT_THROW((void)bad_string.format("%s"), std::out_of_range);
}

} // namespace
} // namespace gpurun::emu
