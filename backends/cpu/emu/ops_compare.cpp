// setp and testp: comparisons into predicate masks.
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

// inst.imm holds the BoolOp; the comparison itself is a template constant so the per-lane loop
// has no switch.
template <class T, nm::Cmp C, bool Ftz> void setp(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = w.reg(in.b);
  std::uint32_t result = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    T x = get<T>(a[l]);
    T y = get<T>(b[l]);
    if constexpr (Ftz) {
      x = nm::flush_subnormal(x);
      y = nm::flush_subnormal(y);
    }
    result |= static_cast<std::uint32_t>(nm::compare(C, x, y)) << l;
  }
  std::uint32_t p = result;
  std::uint32_t q = ~result;
  auto op = static_cast<nm::BoolOp>(in.imm);
  if (op != nm::BoolOp::none) {
    std::uint32_t c = w.preds[in.c];
    if (in.flags & kNegC)
      c = ~c;
    switch (op) {
    case nm::BoolOp::and_:
      p &= c;
      q &= c;
      break;
    case nm::BoolOp::or_:
      p |= c;
      q |= c;
      break;
    case nm::BoolOp::xor_:
      p ^= c;
      q ^= c;
      break;
    case nm::BoolOp::none:
      break;
    }
  }
  if (in.d != kNoReg)
    w.preds[in.d] = (w.preds[in.d] & ~mask) | (p & mask);
  if (in.d2 != kNoReg)
    w.preds[in.d2] = (w.preds[in.d2] & ~mask) | (q & mask);
}

template <class H> struct Widened;
// f16/bf16 comparisons compare the exactly widened values.
template <class H, nm::Cmp C> void setp_half(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = w.reg(in.b);
  std::uint32_t result = 0;
  for (int l = 0; l < kWarpSize; ++l) {
    float x, y;
    if constexpr (std::is_same_v<H, Half>) {
      x = nm::f16_to_f32(get<H>(a[l]));
      y = nm::f16_to_f32(get<H>(b[l]));
    } else {
      x = nm::bf16_to_f32(get<H>(a[l]));
      y = nm::bf16_to_f32(get<H>(b[l]));
    }
    result |= static_cast<std::uint32_t>(nm::compare(C, x, y)) << l;
  }
  std::uint32_t p = result, q = ~result;
  auto op = static_cast<nm::BoolOp>(in.imm);
  if (op != nm::BoolOp::none) {
    std::uint32_t c = w.preds[in.c];
    if (in.flags & kNegC)
      c = ~c;
    if (op == nm::BoolOp::and_) {
      p &= c;
      q &= c;
    }
    if (op == nm::BoolOp::or_) {
      p |= c;
      q |= c;
    }
    if (op == nm::BoolOp::xor_) {
      p ^= c;
      q ^= c;
    }
  }
  if (in.d != kNoReg)
    w.preds[in.d] = (w.preds[in.d] & ~mask) | (p & mask);
  if (in.d2 != kNoReg)
    w.preds[in.d2] = (w.preds[in.d2] & ~mask) | (q & mask);
}

template <class T, nm::FpClass K> void testp(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint32_t result = 0;
  for (int l = 0; l < kWarpSize; ++l)
    result |= static_cast<std::uint32_t>(nm::testp(K, get<T>(a[l]))) << l;
  w.preds[in.d] = (w.preds[in.d] & ~mask) | (result & mask);
}

struct CmpName {
  const char* name;
  nm::Cmp cmp;
};
constexpr CmpName kCmps[] = {
    {"eq", nm::Cmp::eq},   {"ne", nm::Cmp::ne},   {"lt", nm::Cmp::lt},   {"le", nm::Cmp::le},
    {"gt", nm::Cmp::gt},   {"ge", nm::Cmp::ge},   {"lo", nm::Cmp::lo},   {"ls", nm::Cmp::ls},
    {"hi", nm::Cmp::hi},   {"hs", nm::Cmp::hs},   {"equ", nm::Cmp::equ}, {"neu", nm::Cmp::neu},
    {"ltu", nm::Cmp::ltu}, {"leu", nm::Cmp::leu}, {"gtu", nm::Cmp::gtu}, {"geu", nm::Cmp::geu},
    {"num", nm::Cmp::num}, {"nan", nm::Cmp::nan},
};

template <class T, bool Ftz> Handler setp_for(nm::Cmp c) {
  switch (c) {
#define GPURUN_CMP(X)                                                                              \
  case nm::Cmp::X:                                                                                 \
    return &setp<T, nm::Cmp::X, Ftz>;
    GPURUN_CMP(eq)
    GPURUN_CMP(ne)
    GPURUN_CMP(lt)
    GPURUN_CMP(le)
    GPURUN_CMP(gt)
    GPURUN_CMP(ge)
    GPURUN_CMP(lo)
    GPURUN_CMP(ls)
    GPURUN_CMP(hi)
    GPURUN_CMP(hs)
    GPURUN_CMP(equ)
    GPURUN_CMP(neu)
    GPURUN_CMP(ltu) GPURUN_CMP(leu) GPURUN_CMP(gtu) GPURUN_CMP(geu) GPURUN_CMP(num) GPURUN_CMP(nan)
#undef GPURUN_CMP
  }
  return nullptr;
}

template <class H> Handler setp_half_for(nm::Cmp c) {
  switch (c) {
#define GPURUN_CMP(X)                                                                              \
  case nm::Cmp::X:                                                                                 \
    return &setp_half<H, nm::Cmp::X>;
    GPURUN_CMP(eq)
    GPURUN_CMP(ne)
    GPURUN_CMP(lt)
    GPURUN_CMP(le)
    GPURUN_CMP(gt)
    GPURUN_CMP(ge)
    GPURUN_CMP(equ)
    GPURUN_CMP(neu)
    GPURUN_CMP(ltu)
    GPURUN_CMP(leu)
    GPURUN_CMP(gtu)
    GPURUN_CMP(geu)
    GPURUN_CMP(num)
    GPURUN_CMP(nan)
#undef GPURUN_CMP
  default:
    return nullptr;
  }
}

bool unordered_or_float_only(nm::Cmp c) {
  return c >= nm::Cmp::equ;
}
bool unsigned_only(nm::Cmp c) {
  return c == nm::Cmp::lo || c == nm::Cmp::ls || c == nm::Cmp::hi || c == nm::Cmp::hs;
}

} // namespace

bool select_compare(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const OperandList ops(in);
  if (in.opcode == "testp") {
    auto cls = m.take_any({"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
    auto types = m.take_types();
    if (cls.empty() || types.size() != 1 || ops.size() != 2)
      throw_unsupported(in);
    out.d = od.pred_dst(ops[0]);
    out.a = od.src(ops[1], types[0]);
    using K = nm::FpClass;
    auto pick = [&](auto f) -> Handler {
      using F = decltype(f);
      if (cls == "finite")
        return &testp<F, K::finite>;
      if (cls == "infinite")
        return &testp<F, K::infinite>;
      if (cls == "number")
        return &testp<F, K::number>;
      if (cls == "notanumber")
        return &testp<F, K::notanumber>;
      if (cls == "normal")
        return &testp<F, K::normal>;
      return &testp<F, K::subnormal>;
    };
    if (types[0] == Type::f32)
      out.fn = pick(float{});
    else if (types[0] == Type::f64)
      out.fn = pick(double{});
    else
      throw_unsupported(in);
    return true;
  }
  if (in.opcode != "setp")
    return false;

  nm::Cmp cmp{};
  bool found = false;
  for (const auto& c : kCmps)
    if (!found && m.take(c.name)) {
      cmp = c.cmp;
      found = true;
    }
  if (!found)
    throw_unsupported(in, "comparison operator");
  auto bop = m.take_any({"and", "or", "xor"});
  bool ftz = m.take("ftz");
  auto types = m.take_types();
  if (types.size() != 1)
    throw_unsupported(in);
  Type t = types[0];

  if (ops.size() < 3)
    throw_unsupported(in, "operand count");
  if (ops[0].kind == ptx::Operand::Kind::pred_pair) {
    out.d = od.pred_dst(ops[0].elements.at(0));
    out.d2 = od.pred_dst(ops[0].elements.at(1));
  } else {
    out.d = od.pred_dst(ops[0]);
  }
  out.a = od.src(ops[1], t);
  out.b = od.src(ops[2], t);
  out.imm = static_cast<std::int64_t>(nm::BoolOp::none);
  if (!bop.empty()) {
    if (ops.size() != 4)
      throw_unsupported(in, "operand count");
    bool neg = false;
    out.c = od.pred_src(ops[3], &neg);
    if (neg)
      out.flags |= kNegC;
    out.imm = static_cast<std::int64_t>(bop == "and"  ? nm::BoolOp::and_
                                        : bop == "or" ? nm::BoolOp::or_
                                                      : nm::BoolOp::xor_);
  } else if (ops.size() != 3) {
    throw_unsupported(in, "operand count");
  }

  if (is_float(t)) {
    if (unsigned_only(cmp))
      throw_unsupported(in);
    if (t == Type::f32)
      out.fn = ftz ? setp_for<float, true>(cmp) : setp_for<float, false>(cmp);
    else if (t == Type::f64 && !ftz)
      out.fn = setp_for<double, false>(cmp);
    else if (t == Type::f16 && !ftz)
      out.fn = setp_half_for<Half>(cmp);
    else if (t == Type::bf16 && !ftz)
      out.fn = setp_half_for<BFloat16>(cmp);
  } else {
    if (ftz || unordered_or_float_only(cmp) || t == Type::pred)
      throw_unsupported(in);
    out.fn = dispatch_int(t, [&](auto v) -> Handler {
      using T = decltype(v);
      if constexpr (sizeof(T) == 1)
        return nullptr;
      else
        return setp_for<T, false>(cmp);
    });
  }
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
