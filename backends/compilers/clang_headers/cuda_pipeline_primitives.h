// gpurun's CUDA layer for clang: the asynchronous-copy primitives of CUDA's
// cuda_pipeline_primitives.h (sm_80 and later: cp.async from global to shared memory).
#pragma once
#include "__gpurun_defs.h"
#include "__gpurun_intrinsics.h"

// Copies `size_and_align` bytes (4, 8 or 16; both pointers aligned to it) from global `src` to
// shared `dst`, the last `zfill` of them as zeros instead of data.
__GPURUN_DEVICE__ void __pipeline_memcpy_async(void* __restrict__ dst, const void* __restrict__ src,
                                               size_t size_and_align, size_t zfill = 0) {
  const unsigned int to = static_cast<unsigned int>(__cvta_generic_to_shared(dst));
  const unsigned int src_size = static_cast<unsigned int>(size_and_align - zfill);
  switch (size_and_align) {
  case 16:
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(to), "l"(src), "r"(src_size)
                 : "memory");
    break;
  case 8:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(to), "l"(src), "r"(src_size)
                 : "memory");
    break;
  default:
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(to), "l"(src), "r"(src_size)
                 : "memory");
    break;
  }
}

__GPURUN_DEVICE__ void __pipeline_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}

// Waits until at most `prior` of the committed groups are still in flight (cp.async.wait_group
// takes an immediate, hence one case per count, as CUDA's own header has).
__GPURUN_DEVICE__ void __pipeline_wait_prior(size_t prior) {
  switch (prior) {
#define __GPURUN_WAIT(N)                                                                           \
  case N:                                                                                          \
    asm volatile("cp.async.wait_group " #N ";" ::: "memory");                                      \
    break;
    __GPURUN_WAIT(0)
    __GPURUN_WAIT(1)
    __GPURUN_WAIT(2)
    __GPURUN_WAIT(3)
    __GPURUN_WAIT(4)
    __GPURUN_WAIT(5)
    __GPURUN_WAIT(6)
    __GPURUN_WAIT(7)
#undef __GPURUN_WAIT
  default:
    asm volatile("cp.async.wait_group 8;" ::: "memory");
    break;
  }
}
