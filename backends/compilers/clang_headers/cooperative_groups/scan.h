// gpurun's CUDA layer for clang: cooperative_groups::inclusive_scan and exclusive_scan over a
// thread_block_tile or a coalesced_group, with plus by default.
//
// As on the GPU: log2(size) steps, each thread combining op(its value, the value `offset` ranks
// below) while that rank exists; the exclusive scan is the inclusive one moved up a rank, rank 0
// getting a value-initialized T.
#pragma once
#include "reduce.h"

namespace cooperative_groups {
namespace __gpurun {

template <class Group, class T, class Op>
__GPURUN_CG__ T scan_steps(const Group& group, T value, Op& op) {
  const unsigned int rank = group.thread_rank();
  const unsigned int size = group.num_threads();
  for (unsigned int offset = 1; offset < size; offset *= 2) {
    const T below = group.shfl_up(value, offset);
    if (rank >= offset)
      value = op(value, below);
  }
  return value;
}

template <class Group> struct scannable { static constexpr bool value = false; };
template <unsigned int N, class Parent> struct scannable<thread_block_tile<N, Parent>> {
  static constexpr bool value = true;
};
template <> struct scannable<coalesced_group> { static constexpr bool value = true; };

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };

} // namespace __gpurun

template <class Group, class T, class Op>
__GPURUN_CG__ typename __gpurun::enable_if<__gpurun::scannable<Group>::value,
                                           typename __gpurun::result<T, Op>::type>::type
inclusive_scan(const Group& group, const T& value, Op&& op) {
  typedef typename __gpurun::result<T, Op>::type R;
  return __gpurun::scan_steps(group, R(value), op);
}

template <class Group, class T>
__GPURUN_CG__ typename __gpurun::enable_if<__gpurun::scannable<Group>::value, T>::type
inclusive_scan(const Group& group, const T& value) {
  plus<T> op;
  return __gpurun::scan_steps(group, value, op);
}

template <class Group, class T, class Op>
__GPURUN_CG__ typename __gpurun::enable_if<__gpurun::scannable<Group>::value,
                                           typename __gpurun::result<T, Op>::type>::type
exclusive_scan(const Group& group, const T& value, Op&& op) {
  typedef typename __gpurun::result<T, Op>::type R;
  const R inclusive = __gpurun::scan_steps(group, R(value), op);
  const R below = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? R() : below;
}

template <class Group, class T>
__GPURUN_CG__ typename __gpurun::enable_if<__gpurun::scannable<Group>::value, T>::type
exclusive_scan(const Group& group, const T& value) {
  return exclusive_scan(group, value, plus<T>());
}

} // namespace cooperative_groups
