// atomicAdd … atomicXor on the generic address space, through the nvvm atom builtins that clang
// lowers to atom.<op> (the same instructions nvcc's sm_*_atomic_functions.h produce). The
// _block variants use device scope, which is at least as strong as the block scope asked for.
#pragma once
#include "__gpurun_defs.h"

#define __GPURUN_ATOMIC_INT(name, builtin)                                                         \
  __GPURUN_DEVICE__ int name(int* address, int value) {                                            \
    return builtin##_i(address, value);                                                            \
  }                                                                                                \
  __GPURUN_DEVICE__ unsigned int name(unsigned int* address, unsigned int value) {                 \
    return static_cast<unsigned int>(                                                              \
        builtin##_i(reinterpret_cast<int*>(address), static_cast<int>(value)));                    \
  }                                                                                                \
  __GPURUN_DEVICE__ unsigned long long name(unsigned long long* address,                           \
                                            unsigned long long value) {                            \
    return static_cast<unsigned long long>(                                                        \
        builtin##_ll(reinterpret_cast<long long*>(address), static_cast<long long>(value)));       \
  }

__GPURUN_ATOMIC_INT(atomicAdd, __nvvm_atom_add_gen)
__GPURUN_ATOMIC_INT(atomicExch, __nvvm_atom_xchg_gen)
__GPURUN_ATOMIC_INT(atomicAnd, __nvvm_atom_and_gen)
__GPURUN_ATOMIC_INT(atomicOr, __nvvm_atom_or_gen)
__GPURUN_ATOMIC_INT(atomicXor, __nvvm_atom_xor_gen)
#undef __GPURUN_ATOMIC_INT

__GPURUN_DEVICE__ long long atomicAdd(long long* address, long long value) {
  return __nvvm_atom_add_gen_ll(address, value);
}
__GPURUN_DEVICE__ float atomicAdd(float* address, float value) {
  return __nvvm_atom_add_gen_f(address, value);
}
#ifdef __GPURUN_SM60__
__GPURUN_DEVICE__ double atomicAdd(double* address, double value) {
  return __nvvm_atom_add_gen_d(address, value);
}
#else
// Before sm_60 there is no atom.add.f64: a compare-and-swap loop, as the CUDA guide shows.
__GPURUN_DEVICE__ double atomicAdd(double* address, double value) {
  long long* bits = reinterpret_cast<long long*>(address);
  long long old = *bits, assumed;
  do {
    assumed = old;
    old = __nvvm_atom_cas_gen_ll(
        bits, assumed, __builtin_bit_cast(long long, __builtin_bit_cast(double, assumed) + value));
  } while (assumed != old);
  return __builtin_bit_cast(double, old);
}
#endif

__GPURUN_DEVICE__ int atomicSub(int* address, int value) {
  return __nvvm_atom_add_gen_i(address, -value);
}
__GPURUN_DEVICE__ unsigned int atomicSub(unsigned int* address, unsigned int value) {
  return atomicAdd(address, 0u - value);
}
__GPURUN_DEVICE__ unsigned long long atomicSub(unsigned long long* address,
                                               unsigned long long value) {
  return atomicAdd(address, 0ull - value);
}

__GPURUN_DEVICE__ float atomicExch(float* address, float value) {
  return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i(reinterpret_cast<int*>(address),
                                                          __builtin_bit_cast(int, value)));
}

__GPURUN_DEVICE__ int atomicMin(int* address, int value) {
  return __nvvm_atom_min_gen_i(address, value);
}
__GPURUN_DEVICE__ unsigned int atomicMin(unsigned int* address, unsigned int value) {
  return __nvvm_atom_min_gen_ui(address, value);
}
__GPURUN_DEVICE__ long long atomicMin(long long* address, long long value) {
  return __nvvm_atom_min_gen_ll(address, value);
}
__GPURUN_DEVICE__ unsigned long long atomicMin(unsigned long long* address,
                                               unsigned long long value) {
  return __nvvm_atom_min_gen_ull(address, value);
}
__GPURUN_DEVICE__ int atomicMax(int* address, int value) {
  return __nvvm_atom_max_gen_i(address, value);
}
__GPURUN_DEVICE__ unsigned int atomicMax(unsigned int* address, unsigned int value) {
  return __nvvm_atom_max_gen_ui(address, value);
}
__GPURUN_DEVICE__ long long atomicMax(long long* address, long long value) {
  return __nvvm_atom_max_gen_ll(address, value);
}
__GPURUN_DEVICE__ unsigned long long atomicMax(unsigned long long* address,
                                               unsigned long long value) {
  return __nvvm_atom_max_gen_ull(address, value);
}

// ((old >= limit) ? 0 : old + 1) and (((old == 0) || (old > limit)) ? limit : old - 1).
__GPURUN_DEVICE__ unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  return __nvvm_atom_inc_gen_ui(address, limit);
}
__GPURUN_DEVICE__ unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  return __nvvm_atom_dec_gen_ui(address, limit);
}

__GPURUN_DEVICE__ int atomicCAS(int* address, int compare, int value) {
  return __nvvm_atom_cas_gen_i(address, compare, value);
}
__GPURUN_DEVICE__ unsigned int atomicCAS(unsigned int* address, unsigned int compare,
                                         unsigned int value) {
  return static_cast<unsigned int>(__nvvm_atom_cas_gen_i(
      reinterpret_cast<int*>(address), static_cast<int>(compare), static_cast<int>(value)));
}
__GPURUN_DEVICE__ unsigned long long
atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value) {
  return static_cast<unsigned long long>(
      __nvvm_atom_cas_gen_ll(reinterpret_cast<long long*>(address), static_cast<long long>(compare),
                             static_cast<long long>(value)));
}

// Block- and system-scope spellings. Both get device scope: at least as strong as block scope,
// and enough among the GPU's own threads (gpurun never updates device memory from the host while
// a kernel runs); atom.sys is not used.
#define __GPURUN_SCOPED(name)                                                                      \
  template <class T, class... U>                                                                   \
  __GPURUN_DEVICE__ auto name##_block(T* address, U... values)                                     \
      ->decltype(name(address, values...)) {                                                       \
    return name(address, values...);                                                               \
  }                                                                                                \
  template <class T, class... U>                                                                   \
  __GPURUN_DEVICE__ auto name##_system(T* address, U... values)                                    \
      ->decltype(name(address, values...)) {                                                       \
    return name(address, values...);                                                               \
  }
__GPURUN_SCOPED(atomicAdd)
__GPURUN_SCOPED(atomicSub)
__GPURUN_SCOPED(atomicExch)
__GPURUN_SCOPED(atomicMin)
__GPURUN_SCOPED(atomicMax)
__GPURUN_SCOPED(atomicInc)
__GPURUN_SCOPED(atomicDec)
__GPURUN_SCOPED(atomicCAS)
__GPURUN_SCOPED(atomicAnd)
__GPURUN_SCOPED(atomicOr)
__GPURUN_SCOPED(atomicXor)
#undef __GPURUN_SCOPED
