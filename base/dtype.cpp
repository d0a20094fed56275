#include "base/dtype.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gpurun {

namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::size_t size;
  std::string_view descr;
};

// bf16 has no NumPy dtype: it is stored as its raw bits under '<u2' (see docs/arg-grammar.md).
constexpr std::array<DTypeInfo, 12> k_types{{
    {DType::f16, "f16", 2, "<f2"},
    {DType::bf16, "bf16", 2, "<u2"},
    {DType::f32, "f32", 4, "<f4"},
    {DType::f64, "f64", 8, "<f8"},
    {DType::i8, "i8", 1, "|i1"},
    {DType::i16, "i16", 2, "<i2"},
    {DType::i32, "i32", 4, "<i4"},
    {DType::i64, "i64", 8, "<i8"},
    {DType::u8, "u8", 1, "|u1"},
    {DType::u16, "u16", 2, "<u2"},
    {DType::u32, "u32", 4, "<u4"},
    {DType::u64, "u64", 8, "<u8"},
}};

const DTypeInfo& info(DType t) {
  return k_types[static_cast<std::size_t>(t)];
}

template <typename T> T load(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T> void store(void* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

/// Rounds M / 2^shift to the nearest integer, ties to even.
std::uint64_t round_shift(std::uint64_t m, int shift) {
  if (shift == 0)
    return m;
  const std::uint64_t q = m >> shift;
  const std::uint64_t rem = m & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  return (rem > half || (rem == half && (q & 1))) ? q + 1 : q;
}

/// Encodes a double into a narrow IEEE-style format (sign, `ebits` exponent, `mbits` mantissa)
/// with one rounding, so that double → half does not round twice through float. NaNs keep their
/// sign and top payload bits and are made quiet, as x86 F16C conversions do.
std::uint32_t encode_narrow(double v, int ebits, int mbits) {
  const auto x = std::bit_cast<std::uint64_t>(v);
  const std::uint32_t sign = static_cast<std::uint32_t>(x >> 63) << (ebits + mbits);
  const std::uint64_t abs = x & 0x7fffffffffffffffULL;
  const std::uint64_t mant52 = abs & 0x000fffffffffffffULL;
  const std::uint32_t inf = ((1u << ebits) - 1) << mbits;
  if (abs >= 0x7ff0000000000000ULL) {
    if (mant52 == 0)
      return sign | inf;
    return sign | inf | (1u << (mbits - 1)) | static_cast<std::uint32_t>(mant52 >> (52 - mbits));
  }
  const int dexp = static_cast<int>(abs >> 52);
  // Double subnormals are far below the smallest subnormal of any narrow format.
  if (dexp == 0)
    return sign;
  const int bias = (1 << (ebits - 1)) - 1;
  const int te = dexp - 1023 + bias;
  std::uint64_t bits;
  if (te >= 1) {
    const std::uint64_t base = static_cast<std::uint64_t>(te) << mbits;
    // A carry out of the mantissa correctly bumps the exponent (and reaches inf on overflow).
    bits = base + round_shift(mant52, 52 - mbits);
  } else {
    const int shift = 52 - mbits + (1 - te);
    if (shift > 53)
      return sign;
    bits = round_shift(mant52 | (std::uint64_t{1} << 52), shift);
  }
  if (bits >= inf)
    return sign | inf;
  return sign | static_cast<std::uint32_t>(bits);
}

/// The shortest decimal that reads back to the same 16-bit pattern (via `decode`/`encode`).
template <typename Decode, typename Encode>
std::string shortest_narrow(std::uint16_t bits, Decode decode, Encode encode) {
  const double v = decode(bits);
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (encode(std::strtod(buf, nullptr)) == bits)
      break;
  }
  // Reformat through to_chars so the notation matches f32/f64 elements (no "e+05" padding).
  const double shortest = std::strtod(buf, nullptr);
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, shortest);
  return std::string(buf, end);
}

template <typename T> std::string shortest_float(T v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

} // namespace

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& t : k_types)
    if (t.name == name)
      return t.type;
  return std::nullopt;
}

std::string_view dtype_name(DType t) {
  return info(t).name;
}
std::size_t dtype_size(DType t) {
  return info(t).size;
}

bool is_float(DType t) {
  return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64;
}

bool is_signed_int(DType t) {
  return t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64;
}

std::string numpy_descr(DType t) {
  return std::string(info(t).descr);
}

double load_as_double(DType t, const void* p) {
  switch (t) {
  case DType::f16:
    return half_to_float(load<std::uint16_t>(p));
  case DType::bf16:
    return bf16_to_float(load<std::uint16_t>(p));
  case DType::f32:
    return load<float>(p);
  case DType::f64:
    return load<double>(p);
  case DType::u64:
    return static_cast<double>(load<std::uint64_t>(p));
  default:
    return static_cast<double>(load_as_int64(t, p));
  }
}

long long load_as_int64(DType t, const void* p) {
  switch (t) {
  case DType::i8:
    return load<std::int8_t>(p);
  case DType::i16:
    return load<std::int16_t>(p);
  case DType::i32:
    return load<std::int32_t>(p);
  case DType::i64:
    return load<std::int64_t>(p);
  case DType::u8:
    return load<std::uint8_t>(p);
  case DType::u16:
    return load<std::uint16_t>(p);
  case DType::u32:
    return load<std::uint32_t>(p);
  case DType::u64:
    return static_cast<long long>(load<std::uint64_t>(p));
  default:
    return static_cast<long long>(load_as_double(t, p));
  }
}

unsigned long long load_as_uint64(DType t, const void* p) {
  if (t == DType::u64)
    return load<std::uint64_t>(p);
  return static_cast<unsigned long long>(load_as_int64(t, p));
}

void store_from_double(DType t, void* p, double v) {
  switch (t) {
  case DType::f16:
    store(p, static_cast<std::uint16_t>(encode_narrow(v, 5, 10)));
    return;
  case DType::bf16:
    store(p, static_cast<std::uint16_t>(encode_narrow(v, 8, 7)));
    return;
  case DType::f32:
    store(p, static_cast<float>(v));
    return;
  case DType::f64:
    store(p, v);
    return;
  case DType::u64:
    store(p, static_cast<std::uint64_t>(v));
    return;
  default:
    store_from_int64(t, p, static_cast<long long>(v));
    return;
  }
}

void store_from_int64(DType t, void* p, long long v) {
  // Conversions to narrower unsigned types wrap modulo 2^N; signed ones do too since C++20.
  switch (t) {
  case DType::i8:
    store(p, static_cast<std::int8_t>(v));
    return;
  case DType::i16:
    store(p, static_cast<std::int16_t>(v));
    return;
  case DType::i32:
    store(p, static_cast<std::int32_t>(v));
    return;
  case DType::i64:
    store(p, static_cast<std::int64_t>(v));
    return;
  case DType::u8:
    store(p, static_cast<std::uint8_t>(v));
    return;
  case DType::u16:
    store(p, static_cast<std::uint16_t>(v));
    return;
  case DType::u32:
    store(p, static_cast<std::uint32_t>(v));
    return;
  case DType::u64:
    store(p, static_cast<std::uint64_t>(v));
    return;
  default:
    store_from_double(t, p, static_cast<double>(v));
    return;
  }
}

std::string format_element(DType t, const void* p) {
  switch (t) {
  case DType::f16:
    return shortest_narrow(
        load<std::uint16_t>(p), [](std::uint16_t b) { return double{half_to_float(b)}; },
        [](double d) { return static_cast<std::uint16_t>(encode_narrow(d, 5, 10)); });
  case DType::bf16:
    return shortest_narrow(
        load<std::uint16_t>(p), [](std::uint16_t b) { return double{bf16_to_float(b)}; },
        [](double d) { return static_cast<std::uint16_t>(encode_narrow(d, 8, 7)); });
  case DType::f32:
    return shortest_float(load<float>(p));
  case DType::f64:
    return shortest_float(load<double>(p));
  case DType::u64:
    return std::to_string(load<std::uint64_t>(p));
  default:
    return std::to_string(load_as_int64(t, p));
  }
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24 is exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

std::uint16_t float_to_half(float f) {
  return static_cast<std::uint16_t>(encode_narrow(static_cast<double>(f), 5, 10));
}

float bf16_to_float(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

std::uint16_t float_to_bf16(float f) {
  return static_cast<std::uint16_t>(encode_narrow(static_cast<double>(f), 8, 7));
}

} // namespace gpurun
