// The conformance kernels of PTX's less common forms (block_collectives, convert_modifiers,
// minmax_ftz in tests/data/conformance/) run on the CPU backend and are compared here with
// results computed independently of the emulator: from the thread index for the collectives, and
// for the numerics by searching the destination format's table of values for the nearest one
// (in binary128, exact for every input used) instead of rounding bits as the emulator does.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

using Quad = __float128;

std::filesystem::path run_spec(const std::string& spec) {
  const auto dir = temp_dir();
  auto r = run_gpurun("tests/data/conformance/" + spec + ".json --backend cpu -q --save " +
                      dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return dir;
}

template <class T> std::vector<T> load(const std::filesystem::path& file) {
  const HostBuffer b = read_npy(file);
  std::vector<T> v(b.element_count());
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// ---- a small-float format as a table of its values

struct Format {
  int exp_bits, mant_bits;
  bool has_inf;      // IEEE-like (E5M2, f16, bf16); E4M3 has no infinity
  std::uint32_t nan; // the NaN a conversion produces
  [[nodiscard]] int bias() const { return (1 << (exp_bits - 1)) - 1; }
  [[nodiscard]] std::uint32_t sign() const { return 1u << (exp_bits + mant_bits); }
  [[nodiscard]] bool is_nan(std::uint32_t v) const {
    const std::uint32_t mag = v & (sign() - 1), all_exp = ((1u << exp_bits) - 1) << mant_bits;
    if (!has_inf) // E4M3: only S.1111.111
      return mag == (sign() - 1);
    return (mag & all_exp) == all_exp && (mag & ((1u << mant_bits) - 1)) != 0;
  }
  [[nodiscard]] bool is_inf(std::uint32_t v) const {
    return has_inf && (v & (sign() - 1)) == ((1u << exp_bits) - 1) << mant_bits;
  }
  [[nodiscard]] Quad value(std::uint32_t v) const { // finite v
    const std::uint32_t mag = v & (sign() - 1);
    const int e = static_cast<int>(mag >> mant_bits);
    const Quad m = static_cast<Quad>(mag & ((1u << mant_bits) - 1));
    const Quad x = e == 0 ? std::ldexp(1.0, 1 - bias() - mant_bits) * m
                          : std::ldexp(1.0, e - bias() - mant_bits) * (m + (1u << mant_bits));
    return (v & sign()) ? -x : x;
  }
  // The finite non-negative codes in increasing order.
  [[nodiscard]] std::vector<std::uint32_t> finite_codes() const {
    std::vector<std::uint32_t> c;
    for (std::uint32_t v = 0; v < sign(); ++v)
      if (!is_nan(v) && !is_inf(v))
        c.push_back(v);
    return c;
  }
};

const Format k_f16{5, 10, true, 0x7fff};
const Format k_bf16{8, 7, true, 0x7fff};
const Format k_e4m3{4, 3, false, 0x7f};
const Format k_e5m2{5, 2, true, 0x7f};

enum class Mode { rn, rz };

// x (not NaN) rounded into f: the nearest table value (ties to the even code) or the one toward
// zero; beyond the largest value round-to-nearest gives infinity where the format has one (at
// half an ulp past it, as IEEE does) and `satfinite` the largest value.
std::uint32_t round_into(const Format& f, Quad x, Mode mode, bool satfinite) {
  static std::vector<std::pair<const Format*, std::vector<std::uint32_t>>> cache;
  const std::vector<std::uint32_t>* codes = nullptr;
  for (const auto& [fmt, c] : cache)
    if (fmt == &f)
      codes = &c;
  if (!codes) {
    cache.emplace_back(&f, f.finite_codes());
    codes = &cache.back().second;
  }
  const std::uint32_t sign = x < 0 ? f.sign() : 0;
  const Quad a = x < 0 ? -x : x;
  const std::uint32_t largest = codes->back();
  const Quad top = f.value(largest);
  const Quad past = top + (top - f.value(largest - 1)); // where the next binade would start
  std::uint32_t code = 0;
  if (std::isinf(static_cast<double>(a)) || a >= past ||
      (mode == Mode::rn && a >= (top + past) / 2)) {
    code = mode == Mode::rz && !std::isinf(static_cast<double>(a)) ? largest
           : f.has_inf && !satfinite ? ((1u << f.exp_bits) - 1) << f.mant_bits
                                     : largest;
  } else {
    auto it = std::upper_bound(codes->begin(), codes->end(), a,
                               [&](Quad v, std::uint32_t c) { return v < f.value(c); });
    const std::uint32_t below = *(it - 1);
    const std::uint32_t above = it == codes->end() ? largest : *it;
    if (mode == Mode::rz || a == f.value(below)) {
      code = below;
    } else {
      const Quad db = a - f.value(below), da = f.value(above) - a;
      code = db < da ? below : da < db ? above : (below % 2 == 0 ? below : above);
    }
  }
  if (satfinite && f.is_inf(code))
    code = largest;
  return sign | code;
}

std::uint32_t convert(const Format& f, Quad x, bool x_is_nan, Mode mode, bool relu,
                      bool satfinite) {
  if (x_is_nan)
    return f.nan;
  const bool negative = x < 0 || (x == 0 && std::signbit(static_cast<double>(x)));
  if (relu && negative)
    return 0;
  if (x == 0)
    return negative ? f.sign() : 0;
  return round_into(f, x, mode, satfinite);
}

Quad f32_value(std::uint32_t bits) {
  return static_cast<Quad>(std::bit_cast<float>(bits));
}
bool f32_nan(std::uint32_t bits) {
  return std::isnan(std::bit_cast<float>(bits));
}

// ---- the collectives

TEST(ConformanceReferenceE2E, BlockCollectives) {
  const auto out = load<std::uint32_t>(run_spec("block_collectives") / "out.npy");
  const unsigned blocks = 3, threads = 160;
  ASSERT_EQ(out.size(), 12u * blocks * threads);
  auto value = [](unsigned b, unsigned t) { return (t * 7 + t / 5 + b) % 5; };
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned zeros = 0;
    bool all = true, any = false;
    for (unsigned t = 0; t < threads; ++t) {
      zeros += value(b, t) == 0;
      all = all && (value(b, t) < 4 || b == 0);
      any = any || t == 3 * b;
    }
    for (unsigned t = 0; t < threads; ++t) {
      SCOPED_TRACE(testing::Message() << "block " << b << " thread " << t);
      const unsigned* o = &out[12 * (b * threads + t)];
      const unsigned warp = t / 32, lane = t % 32, base = warp * 32;
      auto lanes_where = [&](auto pred, unsigned count) {
        unsigned m = 0;
        for (unsigned l = 0; l < count; ++l)
          if (pred(base + l, l))
            m |= 1u << l;
        return m;
      };
      EXPECT_EQ(o[0], zeros);
      EXPECT_EQ(o[1], all ? 1u : 0u);
      EXPECT_EQ(o[2], any ? 1u : 0u);
      EXPECT_EQ(o[3],
                lanes_where([&](unsigned u, unsigned) { return value(b, u) == value(b, t); }, 32));
      EXPECT_EQ(o[4], warp % 2 == 0 ? 0xffffffffu : 0u);
      EXPECT_EQ(o[5], warp % 2 == 0 ? 1u : 0u);
      EXPECT_EQ(o[6], lanes_where(
                          [&](unsigned u, unsigned l) {
                            return value(b, u) == value(b, t) && l % 2 == lane % 2;
                          },
                          32));
      EXPECT_EQ(o[7], warp % 2 == 0 ? 0xffffffffu : 0u);
      EXPECT_EQ(o[8], warp % 2 == 0 ? 1u : 0u);
      if (lane < 16) {
        EXPECT_EQ(o[9], lanes_where(
                            [&](unsigned u, unsigned) { return value(b, u) == value(b, t); }, 16));
        bool same = true;
        for (unsigned l = 0; l < 16; ++l)
          same = same && (warp % 2 == 0 || value(b, base + l) == value(b, base));
        EXPECT_EQ(o[10], same ? 0xffffu : 0u);
        EXPECT_EQ(o[11], same ? 1u : 0u);
      } else {
        EXPECT_EQ(o[9], 0xffffffffu);
      }
    }
  }
}

// ---- the conversions

TEST(ConformanceReferenceE2E, ConvertModifiers) {
  const auto dir = run_spec("convert_modifiers");
  const auto out16 = load<std::uint16_t>(dir / "out16.npy");
  const auto out32 = load<std::uint32_t>(dir / "out32.npy");
  ASSERT_EQ(out16.size(), 30u * 65536);
  ASSERT_EQ(out32.size(), 4u * 65536);
  std::size_t mismatches = 0;
  auto check = [&](std::uint32_t got, std::uint32_t want, unsigned t, int k) {
    if (got != want && ++mismatches <= 20)
      ADD_FAILURE() << "thread " << t << " output " << k << ": got " << std::hex << got
                    << ", expected " << want;
  };
  for (unsigned t = 0; t < 65536; ++t) {
    const std::uint32_t b0 = t << 16;
    const std::uint32_t x[4] = {b0, b0 | 0x1000u, b0 | 0x8000u, b0 | 0x8001u};
    auto f8 = [&](const Format& f, int i, bool relu) {
      return convert(f, f32_value(x[i]), f32_nan(x[i]), Mode::rn, relu, true);
    };
    auto pair = [](std::uint32_t hi, std::uint32_t lo) { return hi << 8 | lo; };
    const std::uint16_t* o = &out16[30 * t];
    int k = 0;
    for (const Format* f : {&k_e4m3, &k_e5m2})
      for (bool relu : {false, true})
        for (int i : {0, 2})
          check(o[k], pair(f8(*f, i, relu), f8(*f, i + 1, relu)), t, k), ++k;
    // from f16x2: the low half is t, the high half t with the sign flipped
    const std::uint32_t halves[2] = {t, t ^ 0x8000u};
    auto from_half = [&](const Format& f, std::uint32_t h, bool relu) {
      const bool nan = k_f16.is_nan(h);
      const Quad v = nan || k_f16.is_inf(h) ? (h & 0x8000 ? -1 : 1) * Quad(1e30) : k_f16.value(h);
      return convert(f, v, nan, Mode::rn, relu, true);
    };
    for (const Format* f : {&k_e4m3, &k_e5m2})
      for (bool relu : {false, true})
        check(o[k], pair(from_half(*f, halves[1], relu), from_half(*f, halves[0], relu)), t, k),
            ++k;
    struct Scalar {
      const Format* f;
      int input;
      Mode mode;
      bool relu, satfinite;
    };
    const Scalar scalars[] = {{&k_f16, 1, Mode::rn, true, false},
                              {&k_f16, 1, Mode::rn, false, true},
                              {&k_f16, 1, Mode::rz, true, true},
                              {&k_f16, 0, Mode::rn, true, false},
                              {&k_f16, 0, Mode::rn, false, true},
                              {&k_f16, 3, Mode::rz, true, true},
                              {&k_bf16, 2, Mode::rn, true, false},
                              {&k_bf16, 2, Mode::rn, false, true},
                              {&k_bf16, 2, Mode::rz, true, true},
                              {&k_bf16, 3, Mode::rn, true, false},
                              {&k_bf16, 3, Mode::rn, false, true},
                              {&k_bf16, 3, Mode::rz, true, true},
                              // the packs: element b (low half) first
                              {&k_f16, 3, Mode::rn, true, true},
                              {&k_f16, 1, Mode::rn, true, true},
                              {&k_bf16, 0, Mode::rn, true, false},
                              {&k_bf16, 2, Mode::rn, true, false},
                              {&k_bf16, 1, Mode::rz, false, true},
                              {&k_bf16, 3, Mode::rz, false, true}};
    for (const Scalar& s : scalars) {
      const std::uint32_t in = x[s.input];
      const Quad v =
          std::isinf(std::bit_cast<float>(in)) ? (in >> 31 ? -1 : 1) * Quad(1e300) : f32_value(in);
      std::uint32_t want = convert(*s.f, v, f32_nan(in), s.mode, s.relu, s.satfinite);
      if (std::isinf(std::bit_cast<float>(in)) && !s.satfinite && !(s.relu && (in >> 31)))
        want = (in & 0x80000000u ? 0x8000u : 0u) | (s.f == &k_f16 ? 0x7c00u : 0x7f80u);
      check(o[k], want, t, k), ++k;
    }
    // FP8 pair -> f16x2: every pair, exact
    const std::uint32_t* w = &out32[4 * t];
    int j = 0;
    for (const Format* f : {&k_e4m3, &k_e5m2})
      for (bool relu : {false, true}) {
        auto one = [&](std::uint32_t byte) -> std::uint32_t {
          if (f->is_nan(byte))
            return 0x7fff;
          if (relu && (byte & 0x80))
            return 0;
          if (f->is_inf(byte))
            return (byte & 0x80 ? 0x8000u : 0u) | 0x7c00u;
          const Quad v = f->value(byte);
          return v == 0 ? (byte & 0x80 ? 0x8000u : 0u) : round_into(k_f16, v, Mode::rn, false);
        };
        check(w[j], one(t >> 8) << 16 | one(t & 0xff), t, 30 + j), ++j;
      }
  }
  EXPECT_EQ(mismatches, 0u);
}

// ---- min/max .xorsign.abs and f16 .ftz

struct Small {
  const Format& f;
  std::uint32_t bits;
  [[nodiscard]] bool nan() const { return f.is_nan(bits); }
  [[nodiscard]] bool subnormal() const {
    return (bits & (f.sign() - 1)) != 0 && (bits & (f.sign() - 1)) < (1u << f.mant_bits);
  }
  [[nodiscard]] Quad value() const { // ±inf as ±1e300, zero with its sign
    if (f.is_inf(bits))
      return (bits & f.sign()) ? -Quad(1e300) : Quad(1e300);
    return f.value(bits);
  }
};

std::uint32_t flushed(const Format& f, std::uint32_t v) {
  return Small{f, v}.subnormal() ? (v & f.sign()) : v;
}

// The result value r (exact) rounded to f with PTX's arithmetic rules: canonical NaN, .ftz on
// the result, .sat to [0, 1].
std::uint32_t finish(const Format& f, bool nan, Quad r, bool ftz, bool sat) {
  if (nan)
    return sat ? 0 : f.nan;
  std::uint32_t v = 0;
  if (r == 0)
    v = std::signbit(static_cast<double>(r)) ? f.sign() : 0;
  else if (r >= Quad(1e299) || r <= -Quad(1e299))
    v = (r < 0 ? f.sign() : 0) | ((1u << f.exp_bits) - 1) << f.mant_bits;
  else
    v = round_into(f, r, Mode::rn, false);
  if (ftz)
    v = flushed(f, v);
  if (sat) { // negative results, -0 included, become +0 (measured on an H200)
    if (v & f.sign())
      v = 0;
    else if (Small{f, v}.value() > 1)
      v = round_into(f, 1, Mode::rn, false);
  }
  return v;
}

enum class Arith { add, sub, mul, fma };

std::uint32_t arith(const Format& f, Arith op, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                    bool ftz, bool sat) {
  if (ftz) {
    a = flushed(f, a);
    b = flushed(f, b);
    c = flushed(f, c);
  }
  const Small x{f, a}, y{f, b}, z{f, c};
  const Quad p = x.value(), q = y.value(), s = z.value();
  const bool inf_x = f.is_inf(a), inf_y = f.is_inf(b), inf_z = f.is_inf(c);
  bool nan = x.nan() || y.nan() || (op == Arith::fma && z.nan());
  Quad r = 0;
  switch (op) {
  case Arith::add:
  case Arith::sub: {
    const bool neg_b = op == Arith::sub;
    const Quad q2 = neg_b ? -q : q;
    nan = nan || (inf_x && inf_y && (p > 0) != (q2 > 0));
    r = inf_x ? p : inf_y ? q2 : p + q2;
    if (p + q2 == 0 && !inf_x && !inf_y) { // a zero sum: -0 only when both are -0
      const bool nx = std::signbit(static_cast<double>(p)),
                 ny = std::signbit(static_cast<double>(q2));
      r = nx && ny ? -Quad(0) : Quad(0);
    }
    break;
  }
  case Arith::mul:
  case Arith::fma: {
    nan = nan || ((inf_x && q == 0) || (inf_y && p == 0));
    const bool prod_inf = inf_x || inf_y;
    const bool prod_neg =
        std::signbit(static_cast<double>(p)) != std::signbit(static_cast<double>(q));
    const Quad prod = prod_inf ? (prod_neg ? -Quad(1e300) : Quad(1e300)) : p * q;
    if (op == Arith::mul) {
      r = prod_inf ? prod : p * q;
      if (!prod_inf && r == 0)
        r = prod_neg ? -Quad(0) : Quad(0);
      break;
    }
    nan = nan || (prod_inf && inf_z && prod_neg != (s < 0));
    if (prod_inf)
      r = prod;
    else if (inf_z)
      r = s;
    else {
      r = prod + s;
      if (r == 0) { // -0 only from two negative zeros; an exact cancellation is +0
        const bool ns = std::signbit(static_cast<double>(s));
        r = prod == 0 && s == 0 && prod_neg && ns ? -Quad(0) : Quad(0);
      }
    }
    break;
  }
  }
  return finish(f, nan, r, ftz, sat);
}

// min/max with PTX's rules: a NaN operand gives the other (two NaNs, or .NaN with any, the
// canonical NaN), -0 below +0; .xorsign.abs takes |a|, |b| and puts a XOR b's sign on a non-NaN
// result.
std::uint32_t min_max(const Format& f, bool max, std::uint32_t a, std::uint32_t b, bool ftz,
                      bool nan_mode, bool xorsign) {
  if (ftz) {
    a = flushed(f, a);
    b = flushed(f, b);
  }
  const std::uint32_t sign = (a ^ b) & f.sign();
  if (xorsign) {
    a &= f.sign() - 1;
    b &= f.sign() - 1;
  }
  const Small x{f, a}, y{f, b};
  std::uint32_t r = 0;
  if ((x.nan() && y.nan()) || (nan_mode && (x.nan() || y.nan())))
    return f.nan;
  if (x.nan())
    r = b;
  else if (y.nan())
    r = a;
  else if (x.value() == y.value())
    r = ((a & f.sign()) != 0) != max ? a : b;
  else
    r = (x.value() < y.value()) != max ? a : b;
  return xorsign ? (r & (f.sign() - 1)) | sign : r;
}

const Format k_f32{8, 23, true, 0x7fffffff};

TEST(ConformanceReferenceE2E, MinMaxXorsignAndHalfFtz) {
  const auto dir = run_spec("minmax_ftz");
  const auto out32 = load<std::uint32_t>(dir / "out32.npy");
  const auto out16 = load<std::uint16_t>(dir / "out16.npy");
  const auto f = load<std::uint32_t>(dir / "f.npy");
  const auto h = load<std::uint16_t>(dir / "h.npy");
  const unsigned nf = static_cast<unsigned>(f.size()), nh = static_cast<unsigned>(h.size());
  ASSERT_EQ(out32.size(), 4u * nf * nf + 8u * nh * nh);
  for (unsigned t = 0; t < nf * nf; ++t) {
    SCOPED_TRACE(testing::Message() << "f32 pair " << t);
    const std::uint32_t p = f[t / nf], q = f[t % nf];
    const std::uint32_t* o = &out32[4 * t];
    EXPECT_EQ(o[0], min_max(k_f32, true, p, q, false, false, true));
    EXPECT_EQ(o[1], min_max(k_f32, false, p, q, false, false, true));
    EXPECT_EQ(o[2], min_max(k_f32, true, p, q, true, false, true));
    EXPECT_EQ(o[3], min_max(k_f32, false, p, q, false, true, true));
  }
  for (unsigned t = 0; t < nh * nh; ++t) {
    SCOPED_TRACE(testing::Message() << "f16 pair " << t);
    const std::uint32_t a = h[t / nh], b = h[t % nh];
    const std::uint16_t* o = &out16[16 * t];
    EXPECT_EQ(o[0], min_max(k_f16, true, a, b, false, false, true));
    EXPECT_EQ(o[1], min_max(k_f16, false, a, b, false, false, true));
    EXPECT_EQ(o[2], min_max(k_f16, true, a, b, true, true, true));
    EXPECT_EQ(o[3], min_max(k_f16, false, a, b, true, false, false));
    EXPECT_EQ(o[4], min_max(k_f16, true, a, b, true, false, false));
    EXPECT_EQ(o[5], arith(k_f16, Arith::add, a, b, 0, true, false));
    EXPECT_EQ(o[6], arith(k_f16, Arith::sub, a, b, 0, true, false));
    EXPECT_EQ(o[7], arith(k_f16, Arith::mul, a, b, 0, true, false));
    EXPECT_EQ(o[8], arith(k_f16, Arith::fma, a, b, a, true, false));
    EXPECT_EQ(o[9], arith(k_f16, Arith::add, a, b, 0, true, true));
    EXPECT_EQ(o[10], arith(k_f16, Arith::fma, a, b, b, true, true));
    EXPECT_EQ(o[11], min_max(k_bf16, true, a, b, false, false, true));
    EXPECT_EQ(o[12], min_max(k_bf16, false, a, b, false, true, true));
    const bool a_nan = Small{k_f16, a}.nan();
    // abs and neg of a NaN give the canonical NaN (measured on an H200).
    EXPECT_EQ(o[13], a_nan ? 0x7fff : flushed(k_f16, a) & 0x7fff);
    EXPECT_EQ(o[14], a_nan ? 0x7fff : flushed(k_f16, a) ^ 0x8000);
    EXPECT_EQ(o[15], arith(k_f16, Arith::mul, a, b, 0, false, false));
    const std::uint32_t* w = &out32[4 * nf * nf + 8 * t];
    auto pair = [](std::uint32_t lo, std::uint32_t hi) { return lo | hi << 16; };
    // x = (a, b), y = (b, a) as (low, high)
    EXPECT_EQ(w[0], pair(min_max(k_f16, true, a, b, false, false, true),
                         min_max(k_f16, true, b, a, false, false, true)));
    EXPECT_EQ(w[1], pair(min_max(k_f16, false, a, b, true, false, false),
                         min_max(k_f16, false, b, a, true, false, false)));
    EXPECT_EQ(w[2], pair(arith(k_f16, Arith::add, a, b, 0, true, false),
                         arith(k_f16, Arith::add, b, a, 0, true, false)));
    EXPECT_EQ(w[3], pair(arith(k_f16, Arith::mul, a, b, 0, true, false),
                         arith(k_f16, Arith::mul, b, a, 0, true, false)));
    EXPECT_EQ(w[4], pair(arith(k_f16, Arith::fma, a, b, a, true, false),
                         arith(k_f16, Arith::fma, b, a, b, true, false)));
    EXPECT_EQ(w[5], pair(min_max(k_f16, true, a, b, true, true, true),
                         min_max(k_f16, true, b, a, true, true, true)));
    EXPECT_EQ(w[6], pair(min_max(k_bf16, false, a, b, false, false, true),
                         min_max(k_bf16, false, b, a, false, false, true)));
    // neg.ftz.f16x2 of a NaN half gives the canonical NaN (measured on an H200), as the scalar
    // form does; neg.f16x2 without .ftz is a bit operation.
    auto neg = [](std::uint32_t v) {
      return Small{k_f16, v}.nan() ? 0x7fffu : flushed(k_f16, v) ^ 0x8000;
    };
    EXPECT_EQ(w[7], pair(neg(a), neg(b)));
  }
}

// cp.async: the tiled product equals A·B (the tiles past the ragged edges were zero-filled, not
// read), and every partial copy holds src-size bytes of its row, zeros up to cp-size, and the
// 0xA5 fill beyond it.
TEST(ConformanceReferenceE2E, AsyncCopy) {
  const auto dir = run_spec("async_copy");
  const auto a = load<float>(dir / "A.npy"), b = load<float>(dir / "B.npy"),
             c = load<float>(dir / "C.npy");
  const auto bytes = load<std::uint8_t>(dir / "bytes.npy"), out = load<std::uint8_t>(dir / "out.npy");
  const int m = 50, n = 70, k = 45;
  ASSERT_EQ(c.size(), std::size_t{m * n});
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0, mag = 0;
      for (int l = 0; l < k; ++l) {
        sum += double{a[i * k + l]} * b[l * n + j];
        mag += std::abs(double{a[i * k + l]} * b[l * n + j]);
      }
      ASSERT_NEAR(c[i * n + j], sum, 1e-5 * mag) << i << "," << j;
    }
  ASSERT_EQ(out.size(), 3u * 256 * 16);
  for (int t = 0; t < 256; ++t) {
    const int copied[3] = {t % 17, t % 9, t % 3 == 0 ? 0 : 16};
    const int size[3] = {16, 8, 16};
    for (int form = 0; form < 3; ++form)
      for (int j = 0; j < 16; ++j) {
        const int expected = j < copied[form] ? bytes[16 * t + j] : j < size[form] ? 0 : 0xA5;
        ASSERT_EQ(out[(form * 256 + t) * 16 + j], expected) << form << " " << t << " " << j;
      }
  }
}

} // namespace
} // namespace gpurun::test
