// threadIdx, blockIdx, blockDim, gridDim and warpSize. Each coordinate is a property whose getter
// reads the PTX special register (%tid.x …), as nvcc's built-in variables do; the objects
// themselves are never defined, so taking their address is an error, as under nvcc.
#pragma once
#include "vector_types.h"

#define __GPURUN_SREG_GETTER(field, reg)                                                           \
  static __device__ __forceinline__ unsigned int __fetch_##field() {                               \
    return __nvvm_read_ptx_sreg_##reg##_##field();                                                 \
  }
#define __GPURUN_BUILTIN_VAR(type_name, reg, as)                                                   \
  struct type_name {                                                                               \
    __declspec(property(get = __fetch_x)) unsigned int x;                                          \
    __declspec(property(get = __fetch_y)) unsigned int y;                                          \
    __declspec(property(get = __fetch_z)) unsigned int z;                                          \
    __GPURUN_SREG_GETTER(x, reg)                                                                   \
    __GPURUN_SREG_GETTER(y, reg)                                                                   \
    __GPURUN_SREG_GETTER(z, reg)                                                                   \
    __device__ operator as() const { return as{__fetch_x(), __fetch_y(), __fetch_z()}; }           \
                                                                                                   \
  private:                                                                                         \
    __device__ type_name() = delete;                                                               \
    __device__ type_name(const type_name&) = delete;                                               \
    __device__ void operator=(const type_name&) const = delete;                                    \
    __device__ type_name* operator&() const = delete;                                              \
  }

__GPURUN_BUILTIN_VAR(__gpurun_threadIdx_t, tid, uint3);
__GPURUN_BUILTIN_VAR(__gpurun_blockIdx_t, ctaid, uint3);
__GPURUN_BUILTIN_VAR(__gpurun_blockDim_t, ntid, dim3);
__GPURUN_BUILTIN_VAR(__gpurun_gridDim_t, nctaid, dim3);

#undef __GPURUN_BUILTIN_VAR
#undef __GPURUN_SREG_GETTER

extern const __device__ __gpurun_threadIdx_t threadIdx;
extern const __device__ __gpurun_blockIdx_t blockIdx;
extern const __device__ __gpurun_blockDim_t blockDim;
extern const __device__ __gpurun_gridDim_t gridDim;

// nvcc's warpSize is a built-in variable; every NVIDIA GPU has 32 lanes.
static constexpr int warpSize = 32;
