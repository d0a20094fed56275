#pragma once
// Building blocks for instruction handlers: element-wise templates over the lanes of a mask.
// Each handler reads its sources' low bits as the instruction type and writes the result's bits
// zero-extended into the 64-bit register slot.
#include <cstdint>

#include "backends/cpu/emu/types.hpp"
#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

/// The handler of an instruction that has no effect on the emulated machine.
inline void no_op(Warp&, const Inst&, std::uint32_t) {}

template <class T, class R, class Op> void unary_op(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = put<R>(Op{}(get<T>(a[l]))); });
}

template <class T, class R, class Op> void binary_op(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = w.reg(in.b);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = put<R>(Op{}(get<T>(a[l]), get<T>(b[l]))); });
}

/// Second operand of a different type (shift amounts, bfe positions …).
template <class T, class U, class R, class Op>
void binary_mixed_op(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = w.reg(in.b);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = put<R>(Op{}(get<T>(a[l]), get<U>(b[l]))); });
}

template <class T, class C, class R, class Op>
void ternary_op(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = w.reg(in.b);
  const std::uint64_t* c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) { d[l] = put<R>(Op{}(get<T>(a[l]), get<T>(b[l]), get<C>(c[l]))); });
}

/// Calls F with a value of each integer/float C++ type matching a PTX type.
template <class F> inline auto dispatch_int(Type t, F&& f) {
  switch (t) {
  case Type::b16:
  case Type::u16:
    return f(std::uint16_t{});
  case Type::s16:
    return f(std::int16_t{});
  case Type::b32:
  case Type::u32:
    return f(std::uint32_t{});
  case Type::s32:
    return f(std::int32_t{});
  case Type::b64:
  case Type::u64:
    return f(std::uint64_t{});
  case Type::s64:
    return f(std::int64_t{});
  case Type::b8:
  case Type::u8:
    return f(std::uint8_t{});
  case Type::s8:
    return f(std::int8_t{});
  default:
    return decltype(f(std::uint32_t{})){};
  }
}

} // namespace gpurun::emu
