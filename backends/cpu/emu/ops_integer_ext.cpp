// Extended-precision and packed-byte integer instructions: add.cc/addc/sub.cc/subc and
// mad.cc/madc (the carry flag CC.CF is a per-lane bit of the warp state), mul24/mad24, dp4a/dp2a,
// fns.
#include <algorithm>
#include <type_traits>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

template <class T, bool Sub, bool CarryIn, bool CarryOut>
void carry_op(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b);
  std::uint64_t* d = in.d == kNoReg ? nullptr : w.reg(in.d);
  std::uint32_t carry = w.carry;
  std::uint32_t out = 0;
  each_lane(mask, [&](int l) {
    bool cin = CarryIn && (carry >> l & 1);
    auto r = Sub ? nm::sub_cc(get<T>(a[l]), get<T>(b[l]), cin)
                 : nm::add_cc(get<T>(a[l]), get<T>(b[l]), cin);
    if (d)
      d[l] = put<T>(r.value);
    out |= static_cast<std::uint32_t>(r.carry) << l;
  });
  if constexpr (CarryOut)
    w.carry = (carry & ~mask) | (out & mask);
}

// mad{c}.{lo,hi}{.cc}: one half of the full product a*b, plus c and the carry in.
template <class T, bool Signed, bool Hi> T product_half(T a, T b) {
  using Wide = std::conditional_t<sizeof(T) == 4, std::uint64_t, unsigned __int128>;
  using SWide = std::conditional_t<sizeof(T) == 4, std::int64_t, __int128>;
  using S = std::make_signed_t<T>;
  const Wide p = Signed ? static_cast<Wide>(static_cast<SWide>(static_cast<S>(a)) *
                                            static_cast<SWide>(static_cast<S>(b)))
                        : static_cast<Wide>(a) * static_cast<Wide>(b);
  return static_cast<T>(Hi ? p >> (8 * sizeof(T)) : p);
}

template <class T, bool Signed, bool Hi, bool CarryIn, bool CarryOut>
void mad_carry(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  const std::uint32_t carry = w.carry;
  std::uint32_t out = 0;
  each_lane(mask, [&](int l) {
    const bool cin = CarryIn && (carry >> l & 1);
    const T p = product_half<T, Signed, Hi>(get<T>(a[l]), get<T>(b[l]));
    const auto r = nm::add_cc(p, get<T>(c[l]), cin);
    d[l] = put<T>(r.value);
    out |= static_cast<std::uint32_t>(r.carry) << l;
  });
  if constexpr (CarryOut)
    w.carry = (carry & ~mask) | (out & mask);
}

template <class T, bool Signed> Handler mad_carry_handler(bool hi, bool cin, bool cout) {
  if (hi)
    return cin ? (cout ? &mad_carry<T, Signed, true, true, true>
                       : &mad_carry<T, Signed, true, true, false>)
               : &mad_carry<T, Signed, true, false, true>;
  return cin ? (cout ? &mad_carry<T, Signed, false, true, true>
                     : &mad_carry<T, Signed, false, true, false>)
             : &mad_carry<T, Signed, false, false, true>;
}

template <class T, bool Hi> struct Mul24 {
  T operator()(T a, T b) const { return Hi ? nm::mul24_hi(a, b) : nm::mul24_lo(a, b); }
};
template <class T, bool Hi> struct Mad24 {
  T operator()(T a, T b, T c) const { return Hi ? nm::mad24_hi(a, b, c) : nm::mad24_lo(a, b, c); }
};

template <bool ASigned, bool BSigned> void dp4a(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = nm::dp4a(static_cast<std::uint32_t>(a[l]), static_cast<std::uint32_t>(b[l]),
                    static_cast<std::uint32_t>(c[l]), ASigned, BSigned);
  });
}

template <bool ASigned, bool BSigned, bool Hi>
void dp2a(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = nm::dp2a(static_cast<std::uint32_t>(a[l]), static_cast<std::uint32_t>(b[l]),
                    static_cast<std::uint32_t>(c[l]), ASigned, BSigned, Hi);
  });
}

// fns: the position of the |offset|-th set bit of mask, searching up (offset > 0) or down from
// base; offset 0 tests the base bit itself; 0xffffffff when there is none.
std::uint32_t find_nth_set(std::uint32_t mask, std::uint32_t base, std::int32_t offset) {
  if (base > 31)
    return 0xffffffffu;
  if (offset == 0)
    return (mask >> base & 1) ? base : 0xffffffffu;
  std::int64_t count = offset > 0 ? std::int64_t{offset} - 1 : -std::int64_t{offset} - 1;
  int step = offset > 0 ? 1 : -1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step)
    if (mask >> pos & 1) {
      if (count == 0)
        return static_cast<std::uint32_t>(pos);
      --count;
    }
  return 0xffffffffu;
}

void fns(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = find_nth_set(static_cast<std::uint32_t>(a[l]), static_cast<std::uint32_t>(b[l]),
                        static_cast<std::int32_t>(c[l]));
  });
}

template <class T> Handler carry_handler(bool sub, bool cin, bool cout) {
  if (sub)
    return cin ? (cout ? &carry_op<T, true, true, true> : &carry_op<T, true, true, false>)
               : &carry_op<T, true, false, true>;
  return cin ? (cout ? &carry_op<T, false, true, true> : &carry_op<T, false, true, false>)
             : &carry_op<T, false, false, true>;
}

bool has(const ptx::Instruction& in, std::string_view mod) {
  return std::find(in.modifiers.begin(), in.modifiers.end(), mod) != in.modifiers.end();
}

} // namespace

bool select_integer_ext(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const std::string& op = in.opcode;
  const OperandList ops(in);
  if (op == "madc" || (op == "mad" && has(in, "cc"))) {
    const bool cin = op == "madc";
    const auto half = m.take_any({"lo", "hi"});
    const bool cout = m.take("cc");
    const auto types = m.take_types();
    if (half.empty() || types.size() != 1 || ops.size() != 4)
      throw_unsupported(in);
    const Type t = types[0];
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], t);
    out.b = od.src(ops[2], t);
    out.c = od.src(ops[3], t);
    const bool hi = half == "hi";
    switch (t) {
    case Type::u32:
      out.fn = mad_carry_handler<std::uint32_t, false>(hi, cin, cout);
      break;
    case Type::s32:
      out.fn = mad_carry_handler<std::uint32_t, true>(hi, cin, cout);
      break;
    case Type::u64:
      out.fn = mad_carry_handler<std::uint64_t, false>(hi, cin, cout);
      break;
    case Type::s64:
      out.fn = mad_carry_handler<std::uint64_t, true>(hi, cin, cout);
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }
  bool carry_family =
      op == "addc" || op == "subc" || ((op == "add" || op == "sub") && has(in, "cc"));
  if (carry_family) {
    bool cin = op == "addc" || op == "subc";
    bool cout = m.take("cc");
    auto types = m.take_types();
    if (types.size() != 1 || ops.size() != 3)
      throw_unsupported(in);
    Type t = types[0];
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], t);
    out.b = od.src(ops[2], t);
    bool sub = op == "sub" || op == "subc";
    switch (t) {
    case Type::u32:
    case Type::s32:
    case Type::b32:
      out.fn = carry_handler<std::uint32_t>(sub, cin, cout);
      break;
    case Type::u64:
    case Type::s64:
    case Type::b64:
      out.fn = carry_handler<std::uint64_t>(sub, cin, cout);
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }
  if (op == "mul24" || op == "mad24") {
    auto mode = m.take_any({"lo", "hi"});
    auto types = m.take_types();
    bool mad = op == "mad24";
    if (mode.empty() || types.size() != 1 || ops.size() != (mad ? 4u : 3u))
      throw_unsupported(in);
    Type t = types[0];
    if (t != Type::u32 && t != Type::s32)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], t);
    out.b = od.src(ops[2], t);
    if (mad)
      out.c = od.src(ops[3], t);
    bool hi = mode == "hi";
    auto pick = [&]<class T>() -> Handler {
      if (mad)
        return hi ? &ternary_op<T, T, T, Mad24<T, true>> : &ternary_op<T, T, T, Mad24<T, false>>;
      return hi ? &binary_op<T, T, Mul24<T, true>> : &binary_op<T, T, Mul24<T, false>>;
    };
    out.fn = t == Type::s32 ? pick.template operator()<std::int32_t>()
                            : pick.template operator()<std::uint32_t>();
    return true;
  }
  if (op == "fns") {
    if (!m.take("b32") || ops.size() != 4)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::b32);
    out.b = od.src(ops[2], Type::b32);
    out.c = od.src(ops[3], Type::s32);
    out.fn = &fns;
    return true;
  }
  if (op == "dp4a" || op == "dp2a") {
    bool two = op == "dp2a";
    auto half = two ? m.take_any({"lo", "hi"}) : std::string_view{};
    auto types = m.take_types();
    if ((two && half.empty()) || types.size() != 2 || ops.size() != 4)
      throw_unsupported(in);
    for (Type t : types)
      if (t != Type::u32 && t != Type::s32)
        throw_unsupported(in);
    bool as = types[0] == Type::s32, bs = types[1] == Type::s32;
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::b32);
    out.b = od.src(ops[2], Type::b32);
    out.c = od.src(ops[3], as || bs ? Type::s32 : Type::u32);
    if (!two) {
      out.fn = as ? (bs ? &dp4a<true, true> : &dp4a<true, false>)
                  : (bs ? &dp4a<false, true> : &dp4a<false, false>);
    } else if (half == "hi") {
      out.fn = as ? (bs ? &dp2a<true, true, true> : &dp2a<true, false, true>)
                  : (bs ? &dp2a<false, true, true> : &dp2a<false, false, true>);
    } else {
      out.fn = as ? (bs ? &dp2a<true, true, false> : &dp2a<true, false, false>)
                  : (bs ? &dp2a<false, true, false> : &dp2a<false, false, false>);
    }
    return true;
  }
  return false;
}

} // namespace gpurun::emu
