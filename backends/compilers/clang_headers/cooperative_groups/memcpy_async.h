// gpurun's CUDA layer for clang: cooperative_groups::memcpy_async, wait and wait_prior.
//
// The group's threads copy the data among themselves before memcpy_async returns, each rank a
// stride of 4-byte words (bytes when the pointers or the size are not aligned to 4); wait() is
// then the group's barrier, which makes every thread's part visible to the others. A copy that
// has finished early meets the API's promise, which is only that the data is there after wait().
// The overloads taking cuda::aligned_size_t (<cuda/barrier>) are not covered.
#pragma once
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class Group>
__GPURUN_CG__ void memcpy_async(const Group& group, void* __restrict__ dst,
                                const void* __restrict__ src, size_t bytes) {
  const size_t rank = group.thread_rank();
  const size_t stride = group.num_threads();
  const bool words =
      ((reinterpret_cast<size_t>(dst) | reinterpret_cast<size_t>(src) | bytes) & 3) == 0;
  if (words) {
    unsigned int* d = static_cast<unsigned int*>(dst);
    const unsigned int* s = static_cast<const unsigned int*>(src);
    for (size_t i = rank; i < bytes / 4; i += stride)
      d[i] = s[i];
  } else {
    unsigned char* d = static_cast<unsigned char*>(dst);
    const unsigned char* s = static_cast<const unsigned char*>(src);
    for (size_t i = rank; i < bytes; i += stride)
      d[i] = s[i];
  }
}

// Copies the smaller of the two counts of elements.
template <class Group, class T>
__GPURUN_CG__ void memcpy_async(const Group& group, T* __restrict__ dst, size_t dst_count,
                                const T* __restrict__ src, size_t src_count) {
  memcpy_async(group, static_cast<void*>(dst), static_cast<const void*>(src),
               (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}

template <class Group> __GPURUN_CG__ void wait(const Group& group) {
  group.sync();
}

template <unsigned int Stages, class Group> __GPURUN_CG__ void wait_prior(const Group& group) {
  group.sync();
}

} // namespace cooperative_groups
