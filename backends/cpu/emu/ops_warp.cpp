// Warp-level instructions: shfl.sync, vote.sync, redux.sync, match.sync, bar.warp.sync (the
// interpreter makes their lanes wait for the member mask), activemask, and fences, which are no-ops
// when one host thread runs a whole block.
#include <bit>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"

namespace gpurun::emu {

namespace {

enum class ShflMode : std::uint8_t { up, down, bfly, idx };

template <ShflMode M> void shfl(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint32_t src[kWarpSize];
  for (int l = 0; l < kWarpSize; ++l)
    src[l] = static_cast<std::uint32_t>(a[l]);
  std::uint32_t pred = 0;
  std::uint64_t* d = in.d != kNoReg ? w.reg(in.d) : nullptr;
  each_lane(mask, [&](int l) {
    std::uint32_t bval = static_cast<std::uint32_t>(b[l]) & 31;
    std::uint32_t cval = static_cast<std::uint32_t>(c[l]) & 31;
    std::uint32_t segmask = (static_cast<std::uint32_t>(c[l]) >> 8) & 31;
    std::uint32_t lane = static_cast<std::uint32_t>(l);
    std::uint32_t max_lane = (lane & segmask) | (cval & ~segmask);
    std::uint32_t min_lane = lane & segmask;
    std::int32_t j = 0;
    bool p = false;
    if constexpr (M == ShflMode::up) {
      j = static_cast<std::int32_t>(lane) - static_cast<std::int32_t>(bval);
      p = j >= static_cast<std::int32_t>(max_lane);
    } else if constexpr (M == ShflMode::down) {
      j = static_cast<std::int32_t>(lane + bval);
      p = j <= static_cast<std::int32_t>(max_lane);
    } else if constexpr (M == ShflMode::bfly) {
      j = static_cast<std::int32_t>(lane ^ bval);
      p = j <= static_cast<std::int32_t>(max_lane);
    } else {
      j = static_cast<std::int32_t>(min_lane | (bval & ~segmask));
      p = j <= static_cast<std::int32_t>(max_lane);
    }
    if (!p)
      j = l;
    if (d)
      d[l] = src[j & 31];
    pred |= static_cast<std::uint32_t>(p) << l;
  });
  if (in.d2 != kNoReg)
    w.preds[in.d2] = (w.preds[in.d2] & ~mask) | (pred & mask);
}

// The lanes of `mask` by member mask: f(lanes, active) once per distinct member mask, `active`
// being the lanes taking part in that collective. Disjoint groups (the tiles of a
// labeled_partition) may execute one collective instruction together, each with its own mask.
template <class F> void each_member_group(Warp& w, const Inst& in, std::uint32_t mask, F&& f) {
  const std::uint64_t* members = w.reg(in.e);
  std::uint32_t left = mask;
  while (left) {
    const auto first = static_cast<std::uint32_t>(members[std::countr_zero(left)]);
    std::uint32_t group = 0;
    for (std::uint32_t g = left; g; g &= g - 1)
      if (static_cast<std::uint32_t>(members[std::countr_zero(g)]) == first)
        group |= 1u << std::countr_zero(g);
    left &= ~group;
    f(group, w.sync_active & first);
  }
}

template <int Mode> void vote(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint32_t p = w.preds[in.a];
  if (in.flags & kNegA)
    p = ~p;
  // The member lanes of the collective (possibly from several PCs) vote; this call writes `mask`.
  each_member_group(w, in, mask, [&](std::uint32_t lanes, std::uint32_t active) {
    std::uint32_t set = p & active;
    if constexpr (Mode == 3) { // ballot
      std::uint64_t* d = w.reg(in.d);
      each_lane(lanes, [&](int l) { d[l] = set; });
      return;
    }
    bool r = Mode == 0 ? set == active : Mode == 1 ? set != 0 : (set == 0 || set == active);
    std::uint32_t bits = r ? kFullMask : 0;
    w.preds[in.d] = (w.preds[in.d] & ~lanes) | (bits & lanes);
  });
}

enum class ReduxOp : std::uint8_t { add, min, max, and_, or_, xor_ };

template <ReduxOp Op, class T>
void redux_group(Warp& w, const Inst& in, std::uint32_t mask, std::uint32_t active) {
  const std::uint64_t* a = w.reg(in.a);
  T acc = static_cast<T>(a[std::countr_zero(active)]);
  for (std::uint32_t g = active & (active - 1); g; g &= g - 1) {
    T v = static_cast<T>(a[std::countr_zero(g)]);
    if constexpr (Op == ReduxOp::add)
      acc = static_cast<T>(static_cast<std::uint32_t>(acc) + static_cast<std::uint32_t>(v));
    else if constexpr (Op == ReduxOp::min)
      acc = v < acc ? v : acc;
    else if constexpr (Op == ReduxOp::max)
      acc = v > acc ? v : acc;
    else if constexpr (Op == ReduxOp::and_)
      acc &= v;
    else if constexpr (Op == ReduxOp::or_)
      acc |= v;
    else
      acc ^= v;
  }
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = static_cast<std::uint32_t>(acc); });
}

template <ReduxOp Op, class T> void redux(Warp& w, const Inst& in, std::uint32_t mask) {
  each_member_group(w, in, mask, [&](std::uint32_t lanes, std::uint32_t active) {
    redux_group<Op, T>(w, in, lanes, active ? active : lanes);
  });
}

// match.any: the member lanes holding the same value as this lane; match.all: all member lanes
// when they all hold one value (and the predicate true), else 0 (and false).
template <bool All, class T>
void match_group(Warp& w, const Inst& in, std::uint32_t mask, std::uint32_t active) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  if constexpr (All) {
    const T first = static_cast<T>(a[std::countr_zero(active)]);
    bool same = true;
    for (std::uint32_t g = active; g; g &= g - 1)
      same = same && static_cast<T>(a[std::countr_zero(g)]) == first;
    each_lane(mask, [&](int l) { d[l] = same ? active : 0; });
    if (in.d2 != kNoReg)
      w.preds[in.d2] = (w.preds[in.d2] & ~mask) | (same ? mask : 0);
  } else {
    each_lane(mask, [&](int l) {
      std::uint32_t equal = 0;
      for (std::uint32_t g = active; g; g &= g - 1) {
        const int k = std::countr_zero(g);
        if (static_cast<T>(a[k]) == static_cast<T>(a[l]))
          equal |= 1u << k;
      }
      d[l] = equal;
    });
  }
}

template <bool All, class T> void match(Warp& w, const Inst& in, std::uint32_t mask) {
  each_member_group(w, in, mask, [&](std::uint32_t lanes, std::uint32_t active) {
    match_group<All, T>(w, in, lanes, active ? active : lanes);
  });
}

void activemask(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = mask; });
}

} // namespace

bool select_warp(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const std::string& op = in.opcode;
  const OperandList ops(in);
  if (op == "membar" || op == "fence") {
    (void)m.take_any({"cta", "gl", "sys", "gpu", "cluster"});
    (void)m.take_any({"sc", "acq_rel"});
    (void)m.take("proxy");
    (void)m.take("alias");
    out.fn = &no_op;
    return true;
  }
  if (op == "nanosleep") {
    (void)m.take("u32");
    out.fn = &no_op;
    return true;
  }
  if ((op == "bar" || op == "barrier") && m.take("warp")) {
    if (!m.take("sync"))
      throw_unsupported(in);
    (void)m.take("aligned");
    if (ops.size() != 1)
      throw_unsupported(in);
    out.e = od.src(ops[0], Type::b32);
    out.fn = &no_op;
    out.control = Control::warp_sync;
    out.sync_kind = 4;
    return true;
  }
  if (op == "activemask") {
    if (!m.take("b32") || ops.size() != 1)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.fn = &activemask;
    return true;
  }
  if (op == "shfl") {
    if (!m.take("sync"))
      throw_unsupported(in, "shfl without .sync");
    auto mode = m.take_any({"up", "down", "bfly", "idx"});
    if (!m.take("b32") || mode.empty() || ops.size() != 5)
      throw_unsupported(in);
    if (ops[0].kind == ptx::Operand::Kind::pred_pair) {
      out.d = od.dst(ops[0].elements.at(0));
      out.d2 = od.pred_dst(ops[0].elements.at(1));
    } else {
      out.d = od.dst(ops[0]);
    }
    out.a = od.src(ops[1], Type::b32);
    out.b = od.src(ops[2], Type::b32);
    out.c = od.src(ops[3], Type::b32);
    out.e = od.src(ops[4], Type::b32);
    out.control = Control::warp_sync;
    out.sync_kind = 1;
    out.fn = mode == "up"     ? &shfl<ShflMode::up>
             : mode == "down" ? &shfl<ShflMode::down>
             : mode == "bfly" ? &shfl<ShflMode::bfly>
                              : &shfl<ShflMode::idx>;
    return true;
  }
  if (op == "vote") {
    if (!m.take("sync"))
      throw_unsupported(in, "vote without .sync");
    auto mode = m.take_any({"all", "any", "uni", "ballot"});
    auto types = m.take_types();
    if (mode.empty() || types.size() != 1 || ops.size() != 3)
      throw_unsupported(in);
    bool neg = false;
    out.a = od.pred_src(ops[1], &neg);
    if (neg)
      out.flags |= kNegA;
    out.e = od.src(ops[2], Type::b32);
    out.control = Control::warp_sync;
    out.sync_kind = 2;
    if (mode == "ballot") {
      if (types[0] != Type::b32)
        throw_unsupported(in);
      out.d = od.dst(ops[0]);
      out.fn = &vote<3>;
    } else {
      if (types[0] != Type::pred)
        throw_unsupported(in);
      out.d = od.pred_dst(ops[0]);
      out.fn = mode == "all" ? &vote<0> : mode == "any" ? &vote<1> : &vote<2>;
    }
    return true;
  }
  if (op == "match") {
    if (!m.take("sync"))
      throw_unsupported(in);
    auto kind = m.take_any({"any", "all"});
    auto types = m.take_types();
    if (kind.empty() || types.size() != 1 || ops.size() != 3 ||
        (types[0] != Type::b32 && types[0] != Type::b64))
      throw_unsupported(in);
    if (ops[0].kind == ptx::Operand::Kind::pred_pair) {
      if (kind != "all")
        throw_unsupported(in);
      out.d = od.dst(ops[0].elements.at(0));
      out.d2 = od.pred_dst(ops[0].elements.at(1));
    } else {
      out.d = od.dst(ops[0]);
    }
    out.a = od.src(ops[1], types[0]);
    out.e = od.src(ops[2], Type::b32);
    out.control = Control::warp_sync;
    out.sync_kind = 5;
    const bool wide = types[0] == Type::b64;
    out.fn = kind == "all" ? (wide ? &match<true, std::uint64_t> : &match<true, std::uint32_t>)
                           : (wide ? &match<false, std::uint64_t> : &match<false, std::uint32_t>);
    return true;
  }
  if (op == "redux") {
    if (!m.take("sync"))
      throw_unsupported(in);
    auto kind = m.take_any({"add", "min", "max", "and", "or", "xor"});
    auto types = m.take_types();
    if (kind.empty() || types.size() != 1 || ops.size() != 3)
      throw_unsupported(in);
    Type t = types[0];
    bool arith = kind == "add" || kind == "min" || kind == "max";
    if (arith ? (t != Type::u32 && t != Type::s32) : t != Type::b32)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], t);
    out.e = od.src(ops[2], Type::b32);
    out.control = Control::warp_sync;
    out.sync_kind = 3;
    bool s32 = t == Type::s32;
    using R = ReduxOp;
    using U = std::uint32_t;
    using S = std::int32_t;
    out.fn = kind == "add"   ? &redux<R::add, U>
             : kind == "min" ? (s32 ? &redux<R::min, S> : &redux<R::min, U>)
             : kind == "max" ? (s32 ? &redux<R::max, S> : &redux<R::max, U>)
             : kind == "and" ? &redux<R::and_, U>
             : kind == "or"  ? &redux<R::or_, U>
                             : &redux<R::xor_, U>;
    return true;
  }
  return false;
}

} // namespace gpurun::emu
