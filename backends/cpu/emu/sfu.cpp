#include "backends/cpu/emu/sfu.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace gpurun::emu::sfu {
namespace {

struct EmbeddedTable {
  std::string_view name;
  std::string_view bytes;
};
// {"rcp.sfu", std::string_view("\x47...", N)}, … from backends/cpu/emu/sfu/.
constexpr EmbeddedTable kEmbedded[] = {
#include "sfu_tables.inc"
};

/// The f32 bit pattern of u * 2^-frac_bits (u ≥ 0), truncated; 0 below the normal range.
std::uint32_t fixed_to_f32(std::int64_t u, int frac_bits) {
  if (u <= 0)
    return 0;
  const int top = 63 - std::countl_zero(static_cast<std::uint64_t>(u));
  const auto m = static_cast<std::uint64_t>(u);
  const std::uint64_t mant = top >= 23 ? m >> (top - 23) : m << (23 - top);
  const int exp = top - frac_bits + 127;
  if (exp <= 0)
    return 0;
  return static_cast<std::uint32_t>(exp) << 23 | static_cast<std::uint32_t>(mant & 0x7fffff);
}

/// Reads a table's little-endian fields; every error names the table.
class TableReader {
public:
  TableReader(std::string_view name, std::string_view bytes) : m_name(name), m_bytes(bytes) {}

  [[nodiscard]] Error bad(const char* what) const {
    return Error(ExitCode::device, "special-function table " + std::string(m_name) + ": " + what);
  }
  /// Checks the magic and returns the version.
  std::uint32_t header() {
    if (m_bytes.substr(0, 4) != "GSFU")
      throw bad("not a GSFU table");
    m_pos = 4;
    return u32();
  }
  template <class T> T read() {
    if (m_pos + sizeof(T) > m_bytes.size())
      throw bad("truncated");
    T v;
    std::memcpy(&v, m_bytes.data() + m_pos, sizeof(T));
    m_pos += sizeof(T);
    return v;
  }
  std::uint32_t u32() { return read<std::uint32_t>(); }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const auto byte = read<unsigned char>();
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return v;
    }
    throw bad("bad varint");
  }
  void doubles(std::vector<double>& out, std::size_t n) {
    if (m_pos + n * 8 > m_bytes.size())
      throw bad("truncated");
    out.resize(n);
    std::memcpy(out.data(), m_bytes.data() + m_pos, n * 8);
    m_pos += n * 8;
  }
  void end() const {
    if (m_pos != m_bytes.size())
      throw bad("trailing bytes");
  }

private:
  std::string_view m_name;
  std::string_view m_bytes;
  std::size_t m_pos = 0;
};

/// One f32/f64 function over its key: per segment of the key's top bits, the model
/// floor(c0 + sum of c[1+i] over the offset's set bits i + cq * t^2) with t = offset / 2^bits,
/// evaluated in this order in IEEE double (the derivation evaluates it the same way; this file
/// is compiled without floating-point contraction), plus the keys where the GPU differs. The
/// model gives the result's bits, or (version 2) a fixed-point value with `m_frac_bits` fraction
/// bits that truncated to f32 gives them.
class KeyTable {
public:
  KeyTable() = default;
  KeyTable(std::string_view name, std::string_view bytes) { parse(name, bytes); }

  [[nodiscard]] std::uint32_t operator()(std::uint32_t key) const noexcept {
    const std::uint32_t offset = key & ((1u << m_offset_bits) - 1);
    const double* c = &m_coef[static_cast<std::size_t>(key >> m_offset_bits) * m_ncoef];
    double p = c[0];
    for (int i = 0; i < m_offset_bits; ++i)
      if ((offset >> i) & 1u)
        p += c[1 + i];
    const double t = static_cast<double>(offset) / static_cast<double>(1u << m_offset_bits);
    p += c[m_offset_bits + 1] * (t * t);
    auto y = static_cast<std::int64_t>(std::floor(p));
    if (m_frac_bits != 0)
      y = fixed_to_f32(y, m_frac_bits);
    const auto it = std::lower_bound(m_keys.begin(), m_keys.end(), key);
    if (it != m_keys.end() && *it == key)
      y += m_corrections[static_cast<std::size_t>(it - m_keys.begin())];
    return static_cast<std::uint32_t>(y);
  }

private:
  void parse(std::string_view name, std::string_view bytes) {
    TableReader in(name, bytes);
    const std::uint32_t version = in.header();
    if (version != 1 && version != 2)
      throw in.bad("unknown version");
    const std::uint32_t key_bits = in.u32(), seg_bits = in.u32(), ncoef = in.u32();
    const std::uint32_t frac_bits = version == 2 ? in.u32() : 0;
    if (frac_bits > 52)
      throw in.bad("bad fixed point");
    m_frac_bits = static_cast<int>(frac_bits);
    if (key_bits > 32 || seg_bits > key_bits || key_bits - seg_bits > 30 ||
        ncoef != key_bits - seg_bits + 2)
      throw in.bad("bad shape");
    m_offset_bits = static_cast<int>(key_bits - seg_bits);
    m_ncoef = ncoef;
    in.doubles(m_coef, (std::size_t{1} << seg_bits) * ncoef);
    const std::uint32_t count = in.u32();
    m_keys.reserve(count);
    m_corrections.reserve(count);
    std::uint64_t key = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      key += in.varint();
      const std::uint64_t z = in.varint();
      m_keys.push_back(static_cast<std::uint32_t>(key));
      m_corrections.push_back(static_cast<std::int32_t>((z >> 1) ^ (~(z & 1) + 1)));
    }
    in.end();
  }

  int m_offset_bits = 0;
  int m_frac_bits = 0;
  std::uint32_t m_ncoef = 0;
  std::vector<double> m_coef;
  std::vector<std::uint32_t> m_keys;
  std::vector<std::int32_t> m_corrections;
};

/// The unit's own interpolation (MUFU.LG2, MUFU.TANH): in each piece (a binade of the argument)
/// the top `key_bits` bits of the mantissa are the key; its top bits pick a segment and its low
/// `m_offset_bits` are the offset X; the result in fixed point (`frac_bits` fraction bits) is
/// (c0 + c1·X + c2·S) >> m_guard_bits with S the square of X as a truncated multiplier makes it,
/// the partial products of weight 2^m_square_weight and up, over that weight. Exact in int64.
class PolyTable {
public:
  PolyTable() = default;
  PolyTable(std::string_view name, std::string_view bytes) {
    TableReader in(name, bytes);
    if (in.header() != 3)
      throw in.bad("not a version-3 table");
    const std::uint32_t pieces = in.u32();
    m_offset_bits = static_cast<int>(in.u32());
    m_square_weight = static_cast<int>(in.u32());
    m_guard_bits = static_cast<int>(in.u32());
    if (pieces == 0 || pieces > 32 || m_offset_bits < 1 || m_offset_bits > 20 ||
        m_square_weight > 2 * m_offset_bits || m_guard_bits > 40)
      throw in.bad("bad shape");
    std::size_t segments = 0;
    m_pieces.resize(pieces);
    for (auto& p : m_pieces) {
      p.key_bits = in.read<std::uint8_t>();
      p.frac_bits = in.read<std::uint8_t>();
      if (p.key_bits < m_offset_bits || p.key_bits > 23 || p.frac_bits > 40)
        throw in.bad("bad shape");
      p.first = segments;
      segments += std::size_t{1} << (p.key_bits - m_offset_bits);
    }
    m_coef.resize(segments);
    for (auto& c : m_coef) {
      c.c0 = in.read<std::int64_t>();
      c.c1 = in.read<std::int32_t>();
      c.c2 = in.read<std::int32_t>();
      if (c.c0 < -(std::int64_t{1} << 60) || c.c0 > (std::int64_t{1} << 60))
        throw in.bad("coefficient out of range"); // the sum stays far from int64's ends
    }
    in.end();
  }

  [[nodiscard]] std::size_t pieces() const noexcept { return m_pieces.size(); }
  [[nodiscard]] int frac_bits(std::size_t piece) const noexcept { return m_pieces[piece].frac_bits; }

  /// The result in fixed point for the 23-bit mantissa `mant` in `piece`.
  [[nodiscard]] std::int64_t fixed(std::size_t piece, std::uint32_t mant) const noexcept {
    const Piece& p = m_pieces[piece];
    const std::uint32_t k = mant >> (23 - p.key_bits);
    const Coef& c = m_coef[p.first + (k >> m_offset_bits)];
    const std::uint64_t x = k & ((1u << m_offset_bits) - 1);
    return (c.c0 + std::int64_t{c.c1} * static_cast<std::int64_t>(x) +
            std::int64_t{c.c2} * static_cast<std::int64_t>(square(x))) >>
           m_guard_bits;
  }

private:
  /// For each set bit i of x, its own square and the cross terms 2·x_i·x_j·2^(i+j), j > i, of
  /// weight 2^m_square_weight and up; the sum over that weight (nothing below it is kept).
  [[nodiscard]] std::uint64_t square(std::uint64_t x) const noexcept {
    std::uint64_t s = 0;
    for (std::uint64_t bits = x; bits != 0; bits &= bits - 1) {
      const int i = std::countr_zero(bits);
      if (2 * i >= m_square_weight)
        s += std::uint64_t{1} << (2 * i);
      const int j0 = std::max(i + 1, m_square_weight - i - 1); // i + j + 1 >= the weight
      s += (x >> j0 << j0) << (i + 1);
    }
    return s >> m_square_weight;
  }

  struct Piece {
    int key_bits = 0, frac_bits = 0;
    std::size_t first = 0; // its first segment
  };
  struct Coef {
    std::int64_t c0;
    std::int32_t c1, c2;
  };
  int m_offset_bits = 0, m_square_weight = 0, m_guard_bits = 0;
  std::vector<Piece> m_pieces;
  std::vector<Coef> m_coef;
};

struct Tables {
  KeyTable rcp, rsq, sqrt, ex2, rcp64h, rsq64h, sin;
  PolyTable lg2, tanh;
  std::vector<std::uint16_t> ex2_f16, ex2_bf16, tanh_f16, tanh_bf16;
};

std::vector<std::uint16_t> whole_table(std::string_view name, std::string_view bytes) {
  if (bytes.size() != 65536 * 2)
    throw Error(ExitCode::device, "special-function table " + std::string(name) + ": size " +
                                      std::to_string(bytes.size()) + ", want 131072");
  std::vector<std::uint16_t> t(65536);
  std::memcpy(t.data(), bytes.data(), bytes.size());
  return t;
}

template <class Source> Tables make_tables(Source&& bytes_of) {
  Tables t;
  t.rcp = KeyTable("rcp.sfu", bytes_of("rcp.sfu"));
  t.rsq = KeyTable("rsq.sfu", bytes_of("rsq.sfu"));
  t.sqrt = KeyTable("sqrt.sfu", bytes_of("sqrt.sfu"));
  t.ex2 = KeyTable("ex2.sfu", bytes_of("ex2.sfu"));
  t.rcp64h = KeyTable("rcp64h.sfu", bytes_of("rcp64h.sfu"));
  t.rsq64h = KeyTable("rsq64h.sfu", bytes_of("rsq64h.sfu"));
  t.sin = KeyTable("sin.sfu", bytes_of("sin.sfu"));
  t.lg2 = PolyTable("lg2.sfu", bytes_of("lg2.sfu"));
  t.tanh = PolyTable("tanh.sfu", bytes_of("tanh.sfu"));
  if (t.lg2.pieces() != 1 || t.tanh.pieces() != 11)
    throw Error(ExitCode::device, "special-function tables lg2.sfu and tanh.sfu: want 1 and 11 "
                                  "pieces (one per binade of tanh's argument from 2^-8)");
  t.ex2_f16 = whole_table("ex2_f16.t16", bytes_of("ex2_f16.t16"));
  t.ex2_bf16 = whole_table("ex2_bf16.t16", bytes_of("ex2_bf16.t16"));
  t.tanh_f16 = whole_table("tanh_f16.t16", bytes_of("tanh_f16.t16"));
  t.tanh_bf16 = whole_table("tanh_bf16.t16", bytes_of("tanh_bf16.t16"));
  return t;
}

Tables* g_loaded = nullptr; // set by load_tables

const Tables& tables() {
  if (g_loaded)
    return *g_loaded;
  static const Tables embedded = make_tables([](std::string_view name) {
    for (const auto& e : kEmbedded)
      if (e.name == name)
        return e.bytes;
    throw Error(ExitCode::device, "special-function table " + std::string(name) + " not built in");
  });
  return embedded;
}

constexpr std::uint32_t kSign = 0x80000000u, kInf = 0x7f800000u, kNaN = 0x7fffffffu;

/// Splits a finite, normal f32 into exponent (unbiased) and mantissa.
struct Parts {
  std::uint32_t sign;
  int exp;
  std::uint32_t mant;
};
Parts parts(std::uint32_t x) {
  return {x & kSign, static_cast<int>((x >> 23) & 0xff) - 127, x & 0x7fffffu};
}
bool is_nan(std::uint32_t x) { return (x & 0x7fffffffu) > kInf; }
bool is_zero_or_subnormal(std::uint32_t x) { return ((x >> 23) & 0xff) == 0; }

/// A table result's bits with its exponent field moved by `shift`; zero (with the sign) when the
/// result falls below the normal range, infinity above it.
std::uint32_t rescale(std::uint32_t sign, std::uint32_t y, int shift) {
  const int e = static_cast<int>((y >> 23) & 0xff) + shift;
  if (e <= 0)
    return sign;
  if (e >= 255)
    return sign | kInf;
  return sign | (static_cast<std::uint32_t>(e) << 23) | (y & 0x7fffffu);
}

/// The exponent of the result of a square-root-like function of 2^exp * (1.mant): the key holds
/// the exponent's parity, the shift is half the even rest.
std::uint32_t root_key(const Parts& p) { return (static_cast<std::uint32_t>(p.exp & 1) << 23) | p.mant; }
int root_half(const Parts& p) { return (p.exp - (p.exp & 1)) / 2; }

} // namespace

void load_tables(const std::filesystem::path& dir) {
  static Tables loaded;
  loaded = make_tables([&](std::string_view name) {
    static std::deque<std::string> keep; // the views returned below stay valid while parsed
    const auto path = dir / std::string(name);
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw usage_error("cannot read special-function table " + path.string());
    std::ostringstream s;
    s << in.rdbuf();
    keep.push_back(s.str());
    return std::string_view(keep.back());
  });
  g_loaded = &loaded;
}

std::uint32_t rcp(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  if (is_zero_or_subnormal(x))
    return p.sign | kInf;
  if (p.exp == 128)
    return p.sign;
  return rescale(p.sign, tables().rcp(p.mant), -p.exp);
}

std::uint32_t rsq(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  if (is_zero_or_subnormal(x))
    return p.sign | kInf;
  if (p.sign)
    return kNaN;
  if (p.exp == 128)
    return 0;
  return rescale(0, tables().rsq(root_key(p)), -root_half(p));
}

std::uint32_t sqrt(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  if (is_zero_or_subnormal(x))
    return p.sign;
  if (p.sign)
    return kNaN;
  if (p.exp == 128)
    return kInf;
  return rescale(0, tables().sqrt(root_key(p)), root_half(p));
}

std::uint32_t ex2(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  // The argument in fixed point with 23 fraction bits, its magnitude truncated. A negative one
  // with a fraction is complemented (one's complement: -1.5 has the fraction 0.5 - 2^-23), a
  // negative integer negated.
  std::int64_t fixed = 0;
  if (!is_zero_or_subnormal(x)) {
    if (p.exp >= 8)
      fixed = std::int64_t{1} << 31; // beyond any finite result
    else if (p.exp >= -23)
      fixed = static_cast<std::int64_t>((std::uint64_t{1} << 23 | p.mant) << (p.exp + 23) >> 23);
  }
  if (p.sign)
    fixed = (fixed & 0x7fffff) ? ~fixed : -fixed;
  const std::int64_t n = fixed >> 23; // floor
  const auto frac = static_cast<std::uint32_t>(fixed & 0x7fffff);
  if (n >= 128)
    return kInf;
  if (n < -127)
    return 0;
  // The table holds 2^(1 + frac), in [2, 4).
  return rescale(0, tables().ex2(frac), static_cast<int>(n) - 1);
}

std::uint32_t lg2(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  if (is_zero_or_subnormal(x))
    return kSign | kInf;
  if (p.sign)
    return kNaN;
  if (p.exp == 128)
    return kInf;
  // x = 2^e (1 + m). The unit computes L(m) = log2(1 + m) in fixed point with 36 fraction bits;
  // e >= 0 gives e + L truncated to f32, e < 0 -(|e| - 1 + ~L), ~L the one's complement of L's
  // fraction, truncated — so log2(1/4) is the largest f32 below -2, not -2. x = 1 gives +0.
  if (x == 0x3f800000u)
    return 0;
  const PolyTable& lg2 = tables().lg2;
  const int frac = lg2.frac_bits(0);
  const std::int64_t one = std::int64_t{1} << frac, l = lg2.fixed(0, p.mant);
  if (p.exp >= 0)
    return fixed_to_f32(std::int64_t{p.exp} * one + l, frac);
  return kSign | fixed_to_f32(std::int64_t{-p.exp - 1} * one + (one - 1 - l), frac);
}

std::uint32_t tanh(std::uint32_t x) noexcept {
  if (is_nan(x))
    return kNaN;
  const Parts p = parts(x);
  if (p.exp < -8) // zeros and subnormals included: x itself
    return x;
  if (p.exp >= 3) // infinity included
    return p.sign | 0x3f800000u;
  const auto piece = static_cast<std::size_t>(p.exp + 8); // the binade, from 2^-8
  return p.sign | fixed_to_f32(tables().tanh.fixed(piece, p.mant), tables().tanh.frac_bits(piece));
}

std::uint32_t rcp64h(std::uint32_t hi) noexcept {
  // The high word: sign, 11-bit exponent, 20 bits of mantissa; the table's results are the high
  // words of 1 / [1, 2).
  const std::uint32_t sign = hi & kSign;
  const int e = static_cast<int>((hi >> 20) & 0x7ff);
  if (e == 0x7ff)
    return (hi & 0xfffffu) ? kNaN : sign;
  if (e == 0)
    return sign | 0x7ff00000u;
  const std::uint32_t y = tables().rcp64h(hi & 0xfffffu);
  const int ye = static_cast<int>((y >> 20) & 0x7ff) - (e - 1023);
  if (ye <= 0)
    return sign;
  return sign | (static_cast<std::uint32_t>(ye) << 20) | (y & 0xfffffu);
}

std::uint32_t rsq64h(std::uint32_t hi) noexcept {
  const std::uint32_t sign = hi & kSign;
  const int e = static_cast<int>((hi >> 20) & 0x7ff);
  if (e == 0x7ff && (hi & 0xfffffu))
    return kNaN;
  if (e == 0)
    return sign | 0x7ff00000u;
  if (sign)
    return kNaN;
  if (e == 0x7ff)
    return 0;
  const int ub = e - 1023;
  const std::uint32_t key = (static_cast<std::uint32_t>(ub & 1) << 20) | (hi & 0xfffffu);
  const std::uint32_t y = tables().rsq64h(key);
  const int ye = static_cast<int>((y >> 20) & 0x7ff) - (ub - (ub & 1)) / 2;
  if (ye <= 0)
    return 0;
  return (static_cast<std::uint32_t>(ye) << 20) | (y & 0xfffffu);
}

namespace {

/// MUFU.SIN of the 25-bit key k (the argument's revolutions in fixed point): the table holds the
/// first quadrant; the second reflects it with the key complemented, the other half negates.
std::uint32_t sin_key(std::uint32_t k) noexcept {
  constexpr std::uint32_t kQuarter = 1u << 23;
  const std::uint32_t quadrant = k >> 23 & 3, r = k & (kQuarter - 1);
  const std::uint32_t y = tables().sin((quadrant & 1) ? kQuarter - 1 - r : r);
  return quadrant >= 2 ? y ^ kSign : y;
}

/// The key of an argument already in revolutions (t, an f32's bits): floor(|t| * 2^25) mod 2^25.
std::uint32_t revolution_key(std::uint32_t t) noexcept {
  const Parts p = parts(t);
  if (is_zero_or_subnormal(t) || p.exp < -25)
    return 0;
  if (p.exp >= 25) // an integer number of turns
    return 0;
  const std::uint64_t m = std::uint64_t{1} << 23 | p.mant; // t = m * 2^(exp - 23)
  const int shift = p.exp - 23 + 25;
  const std::uint64_t fixed = shift >= 0 ? m << shift : m >> -shift;
  return static_cast<std::uint32_t>(fixed & ((1u << 25) - 1));
}

} // namespace

std::uint32_t sin(std::uint32_t t) noexcept {
  if (is_nan(t) || (t & ~kSign) == kInf)
    return kNaN;
  return sin_key(revolution_key(t)) ^ (t & kSign);
}

std::uint32_t cos(std::uint32_t t) noexcept {
  if (is_nan(t) || (t & ~kSign) == kInf)
    return kNaN;
  return sin_key((revolution_key(t) + (1u << 23)) & ((1u << 25) - 1));
}

std::uint16_t ex2_f16(std::uint16_t x) noexcept { return tables().ex2_f16[x]; }
std::uint16_t ex2_bf16(std::uint16_t x) noexcept { return tables().ex2_bf16[x]; }
std::uint16_t tanh_f16(std::uint16_t x) noexcept { return tables().tanh_f16[x]; }
std::uint16_t tanh_bf16(std::uint16_t x) noexcept { return tables().tanh_bf16[x]; }

} // namespace gpurun::emu::sfu
