// gpurun's CUDA layer for clang: cooperative_groups::reduce over a thread_block_tile or a
// coalesced_group, and the operations it takes (plus, less, greater, bit_and, bit_or, bit_xor).
//
// The order of the operations is the GPU's, so that floating-point results are the same bits:
// a tile and a full warp combine with a butterfly (xor 16, 8 … 1), each thread computing
// op(its value, the partner's); a partial coalesced group runs an inclusive scan over its ranks
// and takes the last rank's value. 32-bit integer sums, minima, maxima and bitwise operations
// are one redux.sync on sm_80 and later, as on the GPU (any order gives the same integer).
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return a + b; }
};
// The second operand only when it is strictly smaller (larger): a tie or a NaN keeps the first.
template <class T> struct less {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T> struct bit_or {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T> struct bit_xor {
  __GPURUN_CG__ T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace __gpurun {

// redux.sync for a 32-bit integer type and one of the operations above; `applies` is false
// for everything else.
template <class T, class Op> struct redux {
  static constexpr bool applies = false;
  static __GPURUN_CG__ T apply(unsigned int, T value) { return value; }
};
#ifdef __GPURUN_SM80__
#define __GPURUN_CG_REDUX(OP, T, INTRINSIC, U)                                                     \
  template <> struct redux<T, OP<T>> {                                                             \
    static constexpr bool applies = true;                                                          \
    static __GPURUN_CG__ T apply(unsigned int mask, T value) {                                     \
      return static_cast<T>(INTRINSIC(mask, static_cast<U>(value)));                               \
    }                                                                                              \
  };
__GPURUN_CG_REDUX(plus, int, __reduce_add_sync, int)
__GPURUN_CG_REDUX(plus, unsigned int, __reduce_add_sync, unsigned int)
__GPURUN_CG_REDUX(less, int, __reduce_min_sync, int)
__GPURUN_CG_REDUX(less, unsigned int, __reduce_min_sync, unsigned int)
__GPURUN_CG_REDUX(greater, int, __reduce_max_sync, int)
__GPURUN_CG_REDUX(greater, unsigned int, __reduce_max_sync, unsigned int)
__GPURUN_CG_REDUX(bit_and, int, __reduce_and_sync, unsigned int)
__GPURUN_CG_REDUX(bit_and, unsigned int, __reduce_and_sync, unsigned int)
__GPURUN_CG_REDUX(bit_or, int, __reduce_or_sync, unsigned int)
__GPURUN_CG_REDUX(bit_or, unsigned int, __reduce_or_sync, unsigned int)
__GPURUN_CG_REDUX(bit_xor, int, __reduce_xor_sync, unsigned int)
__GPURUN_CG_REDUX(bit_xor, unsigned int, __reduce_xor_sync, unsigned int)
#undef __GPURUN_CG_REDUX
#endif

template <class T> struct remove_cvref { typedef T type; };
template <class T> struct remove_cvref<const T> : remove_cvref<T> {};
template <class T> struct remove_cvref<T&> : remove_cvref<T> {};
template <class T> struct remove_cvref<T&&> : remove_cvref<T> {};

template <class T> T&& declval();

// What op(value, value) gives, the type the reduction and the scans compute in.
template <class T, class Op> struct result {
  typedef typename remove_cvref<decltype(declval<Op&>()(declval<const T&>(),
                                                        declval<const T&>()))>::type type;
};

// The butterfly over `width` lanes of the group's segment.
template <unsigned int Width, class Group, class T, class Op>
__GPURUN_CG__ T butterfly(const Group& group, T value, Op& op) {
  for (unsigned int offset = Width / 2; offset > 0; offset /= 2)
    value = op(value, shfl<shfl_bfly>(group.__lanes(), value, offset, Width));
  return value;
}

} // namespace __gpurun

template <unsigned int N, class Parent, class T, class Op>
__GPURUN_CG__ typename __gpurun::result<T, Op>::type
reduce(const thread_block_tile<N, Parent>& group, const T& value, Op&& op) {
  typedef typename __gpurun::result<T, Op>::type R;
  typedef __gpurun::redux<R, typename __gpurun::remove_cvref<Op>::type> redux;
  if (redux::applies)
    return redux::apply(group.__lanes(), R(value));
  return __gpurun::butterfly<N>(group, R(value), op);
}

template <class T, class Op>
__GPURUN_CG__ typename __gpurun::result<T, Op>::type reduce(const coalesced_group& group,
                                                            const T& value, Op&& op) {
  typedef typename __gpurun::result<T, Op>::type R;
  typedef __gpurun::redux<R, typename __gpurun::remove_cvref<Op>::type> redux;
  const unsigned int mask = group.__lanes();
  if (redux::applies)
    return redux::apply(mask, R(value));
  if (mask == 0xffffffffu)
    return __gpurun::butterfly<32>(group, R(value), op);
  const unsigned int rank = group.thread_rank();
  const unsigned int size = group.size();
  R v = R(value);
  for (unsigned int offset = 1; offset < size; offset *= 2) {
    const R below = group.shfl_up(v, offset);
    if (rank >= offset)
      v = op(v, below);
  }
  return group.shfl(v, size - 1);
}

} // namespace cooperative_groups
