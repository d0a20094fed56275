// Integer, bit and move instructions.
#include <chrono>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

template <class T> struct Add {
  T operator()(T a, T b) const { return nm::iadd(a, b); }
};
template <class T> struct Sub {
  T operator()(T a, T b) const { return nm::isub(a, b); }
};
template <class T> struct MulLo {
  T operator()(T a, T b) const { return nm::mul_lo(a, b); }
};
template <class T> struct MulHi {
  T operator()(T a, T b) const { return nm::mul_hi(a, b); }
};
template <class T> struct MulWide {
  nm::Wide<T> operator()(T a, T b) const { return nm::mul_wide(a, b); }
};
template <class T> struct Div {
  T operator()(T a, T b) const { return nm::idiv(a, b); }
};
template <class T> struct Rem {
  T operator()(T a, T b) const { return nm::irem(a, b); }
};
template <class T> struct Min {
  T operator()(T a, T b) const { return nm::imin(a, b); }
};
template <class T> struct Max {
  T operator()(T a, T b) const { return nm::imax(a, b); }
};
template <class T> struct And {
  T operator()(T a, T b) const { return nm::bit_and(a, b); }
};
template <class T> struct Or {
  T operator()(T a, T b) const { return nm::bit_or(a, b); }
};
template <class T> struct Xor {
  T operator()(T a, T b) const { return nm::bit_xor(a, b); }
};
template <class T> struct Shl {
  T operator()(T a, std::uint32_t n) const { return nm::shl(a, n); }
};
template <class T> struct Shr {
  T operator()(T a, std::uint32_t n) const { return nm::shr(a, n); }
};
template <class T> struct Abs {
  T operator()(T a) const { return nm::iabs(a); }
};
template <class T> struct Neg {
  T operator()(T a) const { return nm::ineg(a); }
};
template <class T> struct Not {
  T operator()(T a) const { return nm::bit_not(a); }
};
template <class T> struct Cnot {
  T operator()(T a) const { return nm::cnot(a); }
};
template <class T> struct Popc {
  std::uint32_t operator()(T a) const { return nm::popc(a); }
};
template <class T> struct Clz {
  std::uint32_t operator()(T a) const { return nm::clz(a); }
};
template <class T> struct Brev {
  T operator()(T a) const { return nm::brev(a); }
};
template <class T> struct Bfind {
  std::uint32_t operator()(T a) const { return nm::bfind(a, false); }
};
template <class T> struct BfindShift {
  std::uint32_t operator()(T a) const { return nm::bfind(a, true); }
};
template <class T> struct MadLo {
  T operator()(T a, T b, T c) const { return nm::mad_lo(a, b, c); }
};
template <class T> struct MadHi {
  T operator()(T a, T b, T c) const { return nm::mad_hi(a, b, c); }
};
template <class T> struct Sad {
  T operator()(T a, T b, T c) const { return nm::sad(a, b, c); }
};
template <class T> struct Mov {
  T operator()(T a) const { return a; }
};
struct AddSat {
  std::int32_t operator()(std::int32_t a, std::int32_t b) const { return nm::add_sat(a, b); }
};
struct SubSat {
  std::int32_t operator()(std::int32_t a, std::int32_t b) const { return nm::sub_sat(a, b); }
};

template <class T> void mad_wide(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = put(nm::mad_wide(get<T>(a[l]), get<T>(b[l]), get<nm::Wide<T>>(c[l])));
  });
}

template <class T> void bfe(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = put(nm::bfe(get<T>(a[l]), get<std::uint32_t>(b[l]), get<std::uint32_t>(c[l])));
  });
}

template <class T> void bfi(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c), *e = w.reg(in.e);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = put(
        nm::bfi(get<T>(a[l]), get<T>(b[l]), get<std::uint32_t>(c[l]), get<std::uint32_t>(e[l])));
  });
}

template <nm::PrmtMode M> void prmt(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] =
        nm::prmt(get<std::uint32_t>(a[l]), get<std::uint32_t>(b[l]), get<std::uint32_t>(c[l]), M);
  });
}

template <class T> void selp(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b);
  std::uint32_t p = w.preds[in.c];
  if (in.flags & kNegC)
    p = ~p;
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = put<T>((p >> l & 1) ? get<T>(a[l]) : get<T>(b[l])); });
}

template <class T, bool FloatSelector> void slct(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  bool ftz = in.imm != 0;
  each_lane(mask, [&](int l) {
    if constexpr (FloatSelector)
      d[l] = put(nm::slct(get<T>(a[l]), get<T>(b[l]), get<float>(c[l]), ftz));
    else
      d[l] = put(nm::slct(get<T>(a[l]), get<T>(b[l]), get<std::int32_t>(c[l])));
  });
}

void mov_pred(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint32_t p = w.preds[in.a];
  if (in.flags & kNegA)
    p = ~p;
  w.preds[in.d] = (w.preds[in.d] & ~mask) | (p & mask);
}

// Bitwise ops on predicates (and/or/xor/not .pred).
template <int Op> void pred_logic(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint32_t a = w.preds[in.a];
  if (in.flags & kNegA)
    a = ~a;
  std::uint32_t r = 0;
  if constexpr (Op == 3) {
    r = ~a;
  } else {
    std::uint32_t b = w.preds[in.b];
    if (in.flags & kNegB)
      b = ~b;
    r = Op == 0 ? (a & b) : Op == 1 ? (a | b) : (a ^ b);
  }
  w.preds[in.d] = (w.preds[in.d] & ~mask) | (r & mask);
}

// The address of a .local/.param frame variable: each lane's frame lies elsewhere.
void mov_frame_address(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    d[l] = (kLocalBase + w.frame_base[l] + static_cast<std::uint64_t>(in.imm)) & in.mask_bits;
  });
}

// %clock/%clock64/%clock_hi: a steady nanosecond count; %globaltimer(_lo/_hi): nanoseconds
// since the epoch, as the GPU's global timer counts.
void mov_clock(Warp& w, const Inst& in, std::uint32_t mask) {
  auto now = std::chrono::steady_clock::now().time_since_epoch();
  std::uint64_t v =
      (in.imm & 1) == 0
          ? std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()
          : static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
  if (in.imm & 2)
    v >>= 32;
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = v & in.mask_bits; });
}

// mov.b64 d, {a, b} and mov.b32 d, {a, b}: pack elements, lowest first.
void mov_pack(Warp& w, const Inst& in, std::uint32_t mask) {
  unsigned bits = in.width * 8;
  std::uint64_t emask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    std::uint64_t v = 0;
    for (int i = 0; i < in.vec; ++i)
      v |= (w.reg(in.v[i])[l] & emask) << (i * bits);
    d[l] = v;
  });
}

void mov_unpack(Warp& w, const Inst& in, std::uint32_t mask) {
  unsigned bits = in.width * 8;
  std::uint64_t emask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  const std::uint64_t* a = w.reg(in.a);
  each_lane(mask, [&](int l) {
    std::uint64_t v = a[l];
    for (int i = 0; i < in.vec; ++i)
      if (in.v[i] != kNoReg)
        w.reg(in.v[i])[l] = (v >> (i * bits)) & emask;
  });
}

template <template <class> class Op, bool Unary = false> Handler int_handler(Type t) {
  return dispatch_int(t, [](auto v) -> Handler {
    using T = decltype(v);
    if constexpr (Unary)
      return &unary_op<T, decltype(Op<T>{}(T{})), Op<T>>;
    else
      return &binary_op<T, T, Op<T>>;
  });
}

bool is_int_type(Type t) {
  return t != Type::none && !is_float(t) && t != Type::pred && t != Type::b128;
}

} // namespace

bool select_integer(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const std::string& op = in.opcode;
  const OperandList ops(in);
  auto need = [&](std::size_t n) {
    if (ops.size() != n)
      throw_unsupported(in, "operand count");
  };

  if (op == "mov" || op == "cvta") {
    bool to = false;
    if (op == "cvta") {
      to = m.take("to");
      auto space = m.take_any({"global", "shared", "local", "const", "param"});
      if (space.empty())
        throw_unsupported(in);
      (void)to; // every window is identity-mapped into the generic space
    }
    auto types = m.take_types();
    if (types.size() != 1)
      throw_unsupported(in);
    Type t = types[0];
    need(2);
    if (t == Type::pred) {
      bool neg = false;
      out.d = od.pred_dst(ops[0]);
      out.a = od.pred_src(ops[1], &neg);
      if (neg)
        out.flags |= kNegA;
      out.fn = &mov_pred;
      return true;
    }
    if (ops[0].kind == ptx::Operand::Kind::vector) {
      out.a = od.src(ops[1], t);
      out.vec = static_cast<std::uint8_t>(ops[0].elements.size());
      if (out.vec < 2 || out.vec > 4 || type_bytes(t) % out.vec)
        throw_unsupported(in);
      out.width = static_cast<std::uint8_t>(type_bytes(t) / out.vec);
      for (int i = 0; i < out.vec; ++i)
        out.v[i] = od.dst(ops[0].elements[i]);
      out.fn = &mov_unpack;
      return true;
    }
    out.d = od.dst(ops[0]);
    out.mask_bits = od.dst_mask(ops[0]);
    if (ops[1].kind == ptx::Operand::Kind::vector) {
      out.vec = static_cast<std::uint8_t>(ops[1].elements.size());
      if (out.vec < 2 || out.vec > 4 || type_bytes(t) % out.vec)
        throw_unsupported(in);
      out.width = static_cast<std::uint8_t>(type_bytes(t) / out.vec);
      for (int i = 0; i < out.vec; ++i)
        out.v[i] = od.src(ops[1].elements[i], Type::none);
      out.fn = &mov_pack;
      return true;
    }
    std::int64_t frame_offset = 0;
    if (od.frame_symbol(ops[1], &frame_offset)) {
      out.imm = frame_offset;
      out.fn = &mov_frame_address;
      return true;
    }
    if (auto special = od.dynamic_special(ops[1]); !special.empty()) {
      // imm: bit 0 the global timer (else the clock), bit 1 its high 32 bits.
      const bool timer = special.starts_with("%globaltimer");
      const bool high = special == "%clock_hi" || special == "%globaltimer_hi";
      out.imm = (timer ? 1 : 0) | (high ? 2 : 0);
      out.fn = &mov_clock;
      return true;
    }
    out.a = od.src(ops[1], t);
    switch (type_bytes(t)) {
    case 2:
      out.fn = &unary_op<std::uint16_t, std::uint16_t, Mov<std::uint16_t>>;
      break;
    case 4:
      out.fn = &unary_op<std::uint32_t, std::uint32_t, Mov<std::uint32_t>>;
      break;
    case 8:
      out.fn = &unary_op<std::uint64_t, std::uint64_t, Mov<std::uint64_t>>;
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }

  // Predicate logic.
  if ((op == "and" || op == "or" || op == "xor" || op == "not") && in.modifiers.size() == 1 &&
      in.modifiers[0] == "pred") {
    (void)m.take("pred");
    need(op == "not" ? 2 : 3);
    bool neg = false;
    out.d = od.pred_dst(ops[0]);
    out.a = od.pred_src(ops[1], &neg);
    if (neg)
      out.flags |= kNegA;
    if (op == "not") {
      out.fn = &pred_logic<3>;
      return true;
    }
    out.b = od.pred_src(ops[2], &neg);
    if (neg)
      out.flags |= kNegB;
    out.fn = op == "and" ? &pred_logic<0> : op == "or" ? &pred_logic<1> : &pred_logic<2>;
    return true;
  }

  static const char* const kFamily[] = {
      "add", "sub", "mul",   "mad",  "div",  "rem",  "abs", "neg",   "min",  "max",
      "and", "or",  "xor",   "not",  "cnot", "shl",  "shr", "popc",  "clz",  "brev",
      "bfe", "bfi", "bfind", "prmt", "selp", "slct", "sad", "mul24", "mad24"};
  bool mine = false;
  for (const char* f : kFamily)
    mine = mine || op == f;
  if (!mine)
    return false;

  // Float forms belong to select_float; selp/slct take any type.
  std::vector<std::string> mods = in.modifiers;
  bool has_float = false;
  for (const auto& s : mods)
    if (auto t = parse_type(s); t && is_float(*t))
      has_float = true;
  if (has_float && op != "selp" && op != "slct")
    return false;

  if (op == "selp") {
    auto types = m.take_types();
    if (types.size() != 1)
      throw_unsupported(in);
    need(4);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], types[0]);
    out.b = od.src(ops[2], types[0]);
    bool neg = false;
    out.c = od.pred_src(ops[3], &neg);
    if (neg)
      out.flags |= kNegC;
    switch (type_bytes(types[0])) {
    case 2:
      out.fn = &selp<std::uint16_t>;
      break;
    case 4:
      out.fn = &selp<std::uint32_t>;
      break;
    case 8:
      out.fn = &selp<std::uint64_t>;
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }
  if (op == "slct") {
    bool ftz = m.take("ftz");
    auto types = m.take_types();
    if (types.size() != 2)
      throw_unsupported(in);
    need(4);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], types[0]);
    out.b = od.src(ops[2], types[0]);
    out.c = od.src(ops[3], types[1]);
    out.imm = ftz ? 1 : 0;
    bool fsel = types[1] == Type::f32;
    if (!fsel && types[1] != Type::s32)
      throw_unsupported(in);
    switch (type_bytes(types[0])) {
    case 2:
      out.fn = fsel ? &slct<std::uint16_t, true> : &slct<std::uint16_t, false>;
      break;
    case 4:
      out.fn = fsel ? &slct<std::uint32_t, true> : &slct<std::uint32_t, false>;
      break;
    case 8:
      out.fn = fsel ? &slct<std::uint64_t, true> : &slct<std::uint64_t, false>;
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }

  std::string_view mode;
  if (op == "mul" || op == "mad" || op == "mul24" || op == "mad24")
    mode = m.take_any({"lo", "hi", "wide"});
  bool sat = m.take("sat");
  std::string_view prmt_mode;
  if (op == "prmt")
    prmt_mode = m.take_any({"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"});
  bool shiftamt = op == "bfind" && m.take("shiftamt");
  auto types = m.take_types();
  if (types.size() != 1 || !is_int_type(types[0]))
    throw_unsupported(in);
  Type t = types[0];
  out.d = od.dst(ops.at(0));
  out.mask_bits = od.dst_mask(ops[0]);
  if (sat && !(t == Type::s32 && (op == "add" || op == "sub")))
    throw_unsupported(in);
  if (type_bytes(t) == 1)
    throw_unsupported(in, "8-bit arithmetic");

  auto srcs = [&](std::size_t n) {
    need(n + 1);
    Type st = t;
    if (n >= 1)
      out.a = od.src(ops[1], st);
    if (n >= 2)
      out.b = od.src(ops[2], (op == "shl" || op == "shr") ? Type::u32 : st);
    if (n >= 3)
      out.c = od.src(ops[3], st);
    if (n >= 4)
      out.e = od.src(ops[4], Type::u32);
  };

  if (op == "add" || op == "sub") {
    srcs(2);
    if (sat) {
      out.fn = op == "add" ? &binary_op<std::int32_t, std::int32_t, AddSat>
                           : &binary_op<std::int32_t, std::int32_t, SubSat>;
    } else {
      out.fn = op == "add" ? int_handler<Add>(t) : int_handler<Sub>(t);
    }
  } else if (op == "mul") {
    srcs(2);
    if (mode == "hi")
      out.fn = int_handler<MulHi>(t);
    else if (mode == "wide") {
      if (type_bytes(t) == 8)
        throw_unsupported(in);
      out.fn = dispatch_int(t, [](auto v) -> Handler {
        using T = decltype(v);
        if constexpr (sizeof(T) == 2 || sizeof(T) == 4)
          return &binary_op<T, nm::Wide<T>, MulWide<T>>;
        else
          return nullptr;
      });
    } else if (mode == "lo")
      out.fn = int_handler<MulLo>(t);
    else
      throw_unsupported(in);
  } else if (op == "mad") {
    srcs(3);
    if (mode == "wide") {
      if (type_bytes(t) == 8)
        throw_unsupported(in);
      out.c = od.src(ops[3], is_signed(t) ? Type::s64 : Type::u64);
      out.fn = dispatch_int(t, [](auto v) -> Handler {
        using T = decltype(v);
        if constexpr (sizeof(T) == 2 || sizeof(T) == 4)
          return &mad_wide<T>;
        else
          return nullptr;
      });
    } else {
      out.fn = dispatch_int(t, [&](auto v) -> Handler {
        using T = decltype(v);
        if (mode == "hi")
          return &ternary_op<T, T, T, MadHi<T>>;
        if (mode == "lo")
          return &ternary_op<T, T, T, MadLo<T>>;
        return nullptr;
      });
    }
  } else if (op == "div" || op == "rem" || op == "min" || op == "max" || op == "and" ||
             op == "or" || op == "xor") {
    srcs(2);
    out.fn = op == "div"   ? int_handler<Div>(t)
             : op == "rem" ? int_handler<Rem>(t)
             : op == "min" ? int_handler<Min>(t)
             : op == "max" ? int_handler<Max>(t)
             : op == "and" ? int_handler<And>(t)
             : op == "or"  ? int_handler<Or>(t)
                           : int_handler<Xor>(t);
  } else if (op == "shl" || op == "shr") {
    srcs(2);
    out.fn = dispatch_int(t, [&](auto v) -> Handler {
      using T = decltype(v);
      if (op == "shl")
        return &binary_mixed_op<T, std::uint32_t, T, Shl<T>>;
      return &binary_mixed_op<T, std::uint32_t, T, Shr<T>>;
    });
  } else if (op == "abs" || op == "neg" || op == "not" || op == "cnot" || op == "brev") {
    srcs(1);
    out.fn = op == "abs"    ? int_handler<Abs, true>(t)
             : op == "neg"  ? int_handler<Neg, true>(t)
             : op == "not"  ? int_handler<Not, true>(t)
             : op == "cnot" ? int_handler<Cnot, true>(t)
                            : int_handler<Brev, true>(t);
  } else if (op == "popc" || op == "clz" || op == "bfind") {
    srcs(1);
    if (type_bytes(t) < 4)
      throw_unsupported(in);
    out.fn = op == "popc"  ? int_handler<Popc, true>(t)
             : op == "clz" ? int_handler<Clz, true>(t)
             : shiftamt    ? int_handler<BfindShift, true>(t)
                           : int_handler<Bfind, true>(t);
  } else if (op == "bfe") {
    need(4);
    out.a = od.src(ops[1], t);
    out.b = od.src(ops[2], Type::u32);
    out.c = od.src(ops[3], Type::u32);
    out.fn = dispatch_int(t, [](auto v) -> Handler { return &bfe<decltype(v)>; });
  } else if (op == "bfi") {
    need(5);
    out.a = od.src(ops[1], t);
    out.b = od.src(ops[2], t);
    out.c = od.src(ops[3], Type::u32);
    out.e = od.src(ops[4], Type::u32);
    out.fn = dispatch_int(t, [](auto v) -> Handler { return &bfi<decltype(v)>; });
  } else if (op == "prmt") {
    srcs(3);
    if (type_bytes(t) != 4)
      throw_unsupported(in);
    using PM = nm::PrmtMode;
    out.fn = prmt_mode.empty()    ? &prmt<PM::generic>
             : prmt_mode == "f4e" ? &prmt<PM::f4e>
             : prmt_mode == "b4e" ? &prmt<PM::b4e>
             : prmt_mode == "rc8" ? &prmt<PM::rc8>
             : prmt_mode == "ecl" ? &prmt<PM::ecl>
             : prmt_mode == "ecr" ? &prmt<PM::ecr>
                                  : &prmt<PM::rc16>;
  } else if (op == "sad") {
    srcs(3);
    out.fn = dispatch_int(t, [](auto v) -> Handler {
      using T = decltype(v);
      return &ternary_op<T, T, T, Sad<T>>;
    });
  } else {
    throw_unsupported(in);
  }
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
