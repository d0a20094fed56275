// ld / st (scalar and .v2/.v4) in every state space, cp.async (global → shared), plus the no-op
// hints (prefetch).
#include <algorithm>
#include <cstring>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "backends/cpu/emu/sanitize.hpp"

namespace gpurun::emu {

namespace {

inline constexpr std::uint8_t kSignExtend = 0x10;

// Each access comes in two variants: `Checked` ones call the sanitizer hook when the block asks
// for it; the others, which a module gets unless its context runs a sanitizer, pay nothing for it.
template <unsigned W, bool Checked> void ld_scalar(Warp& w, const Inst& in, std::uint32_t mask) {
  std::uint64_t* d = w.reg(in.d);
  const bool sign = in.flags & kSignExtend;
  auto extend = [&](std::uint64_t v) {
    if (sign && W < 8) {
      constexpr unsigned shift = 64 - 8 * W;
      v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift) & in.mask_bits;
    }
    return v;
  };
  std::uint64_t addr[kWarpSize];
  std::uintptr_t delta = 0;
  if (!(Checked && w.block->sanitize) && warp_window(w, in, mask, W, W, false, addr, delta)) {
    each_lane(mask, [&](int l) {
      std::uint64_t v = 0;
      std::memcpy(&v, reinterpret_cast<const std::byte*>(addr[l] + delta), W);
      d[l] = extend(v);
    });
    return;
  }
  std::byte* p[kWarpSize];
  translate_lanes(w, in, mask, W, W, false, p);
  if (Checked && w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, W, Access::load, p);
  each_lane(mask, [&](int l) {
    std::uint64_t v = 0;
    std::memcpy(&v, p[l], W);
    d[l] = extend(v);
  });
}

// A load every lane makes from the same address (kernel parameters, variables named without a
// register): translated and read once, the value given to every lane.
template <unsigned W, bool Checked> void ld_uniform(Warp& w, const Inst& in, std::uint32_t mask) {
  std::byte* p0 = translate_uniform(w, in, mask, W, false);
  if (Checked && w.block->sanitize) [[unlikely]] {
    std::byte* p[kWarpSize];
    each_lane(mask, [&](int l) { p[l] = p0; });
    sanitize_access(w, in, mask, W, Access::load, p);
  }
  std::uint64_t v = 0;
  std::memcpy(&v, p0, W);
  if ((in.flags & kSignExtend) && W < 8) {
    constexpr unsigned shift = 64 - 8 * W;
    v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift) & in.mask_bits;
  }
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = v; });
}

template <unsigned W, bool Checked> void st_scalar(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* s = w.reg(in.b);
  std::uint64_t addr[kWarpSize];
  std::uintptr_t delta = 0;
  if (!(Checked && w.block->sanitize) && warp_window(w, in, mask, W, W, true, addr, delta)) {
    each_lane(mask,
              [&](int l) { std::memcpy(reinterpret_cast<std::byte*>(addr[l] + delta), &s[l], W); });
    return;
  }
  std::byte* p[kWarpSize];
  translate_lanes(w, in, mask, W, W, true, p);
  if (Checked && w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, W, Access::store, p);
  each_lane(mask, [&](int l) { std::memcpy(p[l], &s[l], W); });
}

template <bool Checked> void ld_vector(Warp& w, const Inst& in, std::uint32_t mask) {
  std::byte* p[kWarpSize];
  unsigned total = unsigned{in.width} * in.vec;
  translate_lanes(w, in, mask, total, total, false, p);
  if (Checked && w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, total, Access::load, p);
  const bool sign = in.flags & kSignExtend;
  const unsigned shift = 64 - 8 * in.width;
  each_lane(mask, [&](int l) {
    for (int i = 0; i < in.vec; ++i) {
      if (in.v[i] == kNoReg)
        continue;
      std::uint64_t v = 0;
      std::memcpy(&v, p[l] + i * in.width, in.width);
      if (sign && in.width < 8)
        v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v << shift) >> shift) &
            in.mask_bits;
      w.reg(in.v[i])[l] = v;
    }
  });
}

template <bool Checked> void st_vector(Warp& w, const Inst& in, std::uint32_t mask) {
  std::byte* p[kWarpSize];
  unsigned total = unsigned{in.width} * in.vec;
  translate_lanes(w, in, mask, total, total, true, p);
  if (Checked && w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, total, Access::store, p);
  each_lane(mask, [&](int l) {
    for (int i = 0; i < in.vec; ++i)
      std::memcpy(p[l] + i * in.width, &w.reg(in.v[i])[l], in.width);
  });
}

// cp.async: `cp-size` bytes to shared memory, the first `src-size` of them read from global memory
// and the rest zero (`ignore-src` true: all zero). One thread of the host runs the warp, so the
// copy is done at once: it has landed by the time cp.async.wait_group / wait_all waits for it, and
// a kernel that reads the destination before waiting reads what the GPU may also give it. Lanes
// that read nothing (src-size 0) do not touch their source address, as on the GPU, where
// predicated-off copies commonly pass a pointer past the end.
inline constexpr std::uint8_t kCpAsyncIgnoreSrc = 0x20; ///< Inst::e is the ignore-src predicate
inline constexpr std::uint8_t kCpAsyncSrcSize = 0x40;   ///< Inst::c is the src-size operand

void cp_async(Warp& w, const Inst& in, std::uint32_t mask) {
  const unsigned size = in.width;
  Inst dst = in; // the destination address: register b + the displacement kept in aux
  dst.a = in.b;
  dst.imm = static_cast<std::int32_t>(in.aux);
  dst.space = Space::shared;
  dst.flags = 0;
  std::uint32_t ignore = 0;
  if (in.flags & kCpAsyncIgnoreSrc)
    ignore = w.preds[in.e] ^ ((in.flags & kNegA) ? ~0u : 0u);
  const std::uint64_t* src_size = (in.flags & kCpAsyncSrcSize) ? w.reg(in.c) : nullptr;
  const bool sanitize = w.block->sanitize;
  std::byte* lane_ptr[kWarpSize]; // sanitize_access reads lane l's pointer at [l]
  each_lane(mask, [&](int l) {
    const std::uint32_t one = 1u << l;
    const std::uint64_t to = lane_address(w, dst, l);
    if (to & (size - 1))
      throw_misaligned(w, l, to, size);
    std::byte* d = translate(w, Space::shared, to, size, l, true);
    unsigned n = size;
    if (ignore & one)
      n = 0;
    else if (src_size)
      n = static_cast<unsigned>(std::min<std::uint64_t>(src_size[l] & 0xffffffffu, size));
    if (sanitize) [[unlikely]] {
      lane_ptr[l] = d;
      sanitize_access(w, dst, one, size, Access::store, lane_ptr);
    }
    if (n > 0) {
      const std::uint64_t from = lane_address(w, in, l);
      if (from & (size - 1))
        throw_misaligned(w, l, from, size);
      std::byte* s = translate(w, in.space, from, n, l, false);
      if (sanitize) [[unlikely]] {
        lane_ptr[l] = s;
        sanitize_access(w, in, one, n, Access::load, lane_ptr);
      }
      std::memmove(d, s, n);
    }
    std::memset(d + n, 0, size - n);
  });
}

// isspacep: whether a generic address falls in a state space's window. Module __constant__
// variables live among the global allocations here, so isspacep.const is false for every address
// and isspacep.global true for them.
template <Window Win> void isspacep(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint32_t p = 0;
  each_lane(mask, [&](int l) {
    if (window_of(a[l]) == Win)
      p |= 1u << l;
  });
  w.preds[in.d] = (w.preds[in.d] & ~mask) | p;
}

void never(Warp& w, const Inst& in, std::uint32_t mask) {
  w.preds[in.d] &= ~mask;
}

bool select_isspacep(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  auto space = m.take_any({"global", "shared", "local", "const", "param"});
  (void)m.take_any({"cta", "cluster", "entry"});
  if (space.empty() || in.operands.size() != 2)
    throw_unsupported(in);
  out.d = od.pred_dst(in.operands[0]);
  out.a = od.src(in.operands[1], Type::u64);
  out.fn = space == "global"   ? &isspacep<Window::global>
           : space == "shared" ? &isspacep<Window::shared>
           : space == "local"  ? &isspacep<Window::local>
           : space == "param"  ? &isspacep<Window::param>
                               : &never;
  return true;
}

bool select_cp_async(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  if (!m.take("async"))
    throw_unsupported(in);
  // Every copy completes when issued, so the group bookkeeping has nothing to wait for.
  if (m.take("commit_group") || m.take("wait_all") || m.take("wait_group")) {
    out.fn = &no_op;
    return true;
  }
  auto level = m.take_any({"ca", "cg"});
  bool to_shared = !m.take_any({"shared"}).empty();
  (void)m.take("cta");
  bool from_global = !m.take_any({"global"}).empty();
  if (level.empty() || !to_shared || !from_global)
    throw_unsupported(in, "only cp.async.{ca,cg}.shared.global is implemented");
  const bool cache_hint = m.take("L2::cache_hint");
  (void)m.take_any({"L2::64B", "L2::128B", "L2::256B"});
  const OperandList ops(in);
  if (ops.size() < 3 || ops.size() > 5)
    throw_unsupported(in, "operand count");
  if (ops[2].kind != ptx::Operand::Kind::imm_int)
    throw_unsupported(in, "cp-size must be an immediate");
  const std::uint64_t size = ops[2].bits;
  if (!(size == 4 || size == 8 || size == 16) || (level == "cg" && size != 16))
    throw_unsupported(in, "cp-size");
  out.width = static_cast<std::uint8_t>(size);
  Inst dst;
  dst.space = Space::shared;
  od.address(ops[0], dst);
  if (dst.flags & kFrameRelative)
    throw_unsupported(in, "destination is not shared memory");
  if (dst.imm != static_cast<std::int32_t>(dst.imm)) // kept in Inst::aux
    throw_unsupported(in, "destination displacement beyond 32 bits");
  out.b = dst.a;
  out.aux = static_cast<std::uint32_t>(static_cast<std::int32_t>(dst.imm));
  out.space = Space::global;
  od.address(ops[1], out);
  // After cp-size: src-size (an integer) or ignore-src (a predicate), then with .L2::cache_hint
  // the cache policy, which changes nothing here.
  const std::size_t operands = ops.size() - (cache_hint ? 1 : 0);
  if (operands > 4 || operands < 3)
    throw_unsupported(in, "operand count");
  if (operands == 4) {
    if (od.is_pred(ops[3])) {
      bool neg = false;
      out.e = od.pred_src(ops[3], &neg);
      out.flags |= kCpAsyncIgnoreSrc | (neg ? kNegA : 0);
    } else {
      out.c = od.src(ops[3], Type::u32);
      out.flags |= kCpAsyncSrcSize;
    }
  }
  out.fn = &cp_async;
  return true;
}

Space parse_space(Modifiers& m, bool& found) {
  auto s = m.take_any({"global", "shared", "local", "param", "const"});
  found = !s.empty();
  if (s == "global")
    return Space::global;
  if (s == "shared") {
    (void)m.take_any({"cta", "cluster"}); // from shared::cta, shared::cluster
    return Space::shared;
  }
  if (s == "local")
    return Space::local;
  if (s == "param") {
    (void)m.take_any({"entry", "func"}); // param::entry, param::func
    return Space::param_kernel;
  }
  if (s == "const")
    return Space::const_;
  return Space::generic;
}

// The unchecked handlers and their checked twins.
template <bool Checked>
constexpr Handler k_access_handlers[] = {
    &ld_scalar<1, Checked>,  &ld_scalar<2, Checked>,  &ld_scalar<4, Checked>,
    &ld_scalar<8, Checked>,  &st_scalar<1, Checked>,  &st_scalar<2, Checked>,
    &st_scalar<4, Checked>,  &st_scalar<8, Checked>,  &ld_vector<Checked>,
    &st_vector<Checked>,     &ld_uniform<1, Checked>, &ld_uniform<2, Checked>,
    &ld_uniform<4, Checked>, &ld_uniform<8, Checked>};

} // namespace

void use_checked_memory_handlers(Program& program) {
  constexpr std::size_t n = std::size(k_access_handlers<false>);
  for (Inst& in : program.code)
    for (std::size_t i = 0; i < n; ++i)
      if (in.fn == k_access_handlers<false>[i])
        in.fn = k_access_handlers<true>[i];
}

bool select_memory(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const std::string& op = in.opcode;
  if (op == "cp")
    return select_cp_async(in, m, od, out);
  if (op == "isspacep")
    return select_isspacep(in, m, od, out);
  if (op == "prefetch" || op == "prefetchu") {
    (void)m.take_any({"global", "local"});
    (void)m.take_any({"L1", "L2"});
    out.fn = &no_op;
    return true;
  }
  if (op != "ld" && op != "st" && op != "ldu")
    return false;
  bool found = false;
  out.space = parse_space(m, found);
  // Cache and ordering hints do not change results on one host.
  (void)m.take("nc");
  (void)m.take("volatile");
  (void)m.take_any({"relaxed", "acquire", "release", "weak", "mmio"});
  (void)m.take_any({"cta", "gpu", "sys", "cluster"});
  (void)m.take_any({"ca", "cg", "cs", "lu", "cv", "wb", "wt"});
  while (!m.take_any({"L1::evict_last", "L1::evict_first", "L1::no_allocate", "L1::evict_normal",
                      "L1::evict_unchanged", "L2::evict_last", "L2::evict_first",
                      "L2::evict_normal", "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint"})
              .empty()) {
  }
  auto vec = m.take_any({"v2", "v4"});
  out.vec = vec == "v2" ? 2 : vec == "v4" ? 4 : 1;
  auto types = m.take_types();
  if (types.size() != 1 || types[0] == Type::pred || types[0] == Type::b128)
    throw_unsupported(in);
  Type t = types[0];
  out.width = static_cast<std::uint8_t>(type_bytes(t));
  if (is_signed(t))
    out.flags |= kSignExtend;
  const OperandList ops(in);
  if (ops.size() != 2)
    throw_unsupported(in, "operand count");
  bool load = op != "st";
  const ptx::Operand& addr = load ? ops[1] : ops[0];
  const ptx::Operand& value = load ? ops[0] : ops[1];
  od.address(addr, out);
  if (out.space == Space::param_kernel && !load)
    throw_unsupported(in, "store to a kernel parameter");

  if (out.vec == 1) {
    if (load) {
      out.d = od.dst(value);
      out.mask_bits = od.dst_mask(value);
      if (out.d == kNoReg)
        throw_unsupported(in);
    } else {
      out.b = od.src(value, t);
    }
    if (load && out.a == kNoReg && !(out.flags & kFrameRelative)) {
      switch (out.width) {
      case 1:
        out.fn = &ld_uniform<1, false>;
        return true;
      case 2:
        out.fn = &ld_uniform<2, false>;
        return true;
      case 4:
        out.fn = &ld_uniform<4, false>;
        return true;
      case 8:
        out.fn = &ld_uniform<8, false>;
        return true;
      default:
        throw_unsupported(in);
      }
    }
    switch (out.width) {
    case 1:
      out.fn = load ? &ld_scalar<1, false> : &st_scalar<1, false>;
      break;
    case 2:
      out.fn = load ? &ld_scalar<2, false> : &st_scalar<2, false>;
      break;
    case 4:
      out.fn = load ? &ld_scalar<4, false> : &st_scalar<4, false>;
      break;
    case 8:
      out.fn = load ? &ld_scalar<8, false> : &st_scalar<8, false>;
      break;
    default:
      throw_unsupported(in);
    }
    return true;
  }
  if (value.kind != ptx::Operand::Kind::vector || value.elements.size() != out.vec)
    throw_unsupported(in, "vector operand");
  for (int i = 0; i < out.vec; ++i) {
    if (load) {
      out.v[i] = od.dst(value.elements[i]);
      if (out.v[i] != kNoReg)
        out.mask_bits = od.dst_mask(value.elements[i]);
    } else {
      out.v[i] = od.src(value.elements[i], t);
    }
  }
  out.fn = load ? &ld_vector<false> : &st_vector<false>;
  return true;
}

} // namespace gpurun::emu
