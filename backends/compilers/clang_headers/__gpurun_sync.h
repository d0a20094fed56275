// Barriers and memory fences. __syncthreads() itself is a clang builtin (bar.sync 0).
#pragma once
#include "__gpurun_defs.h"

__GPURUN_DEVICE__ int __syncthreads_count(int predicate) {
  return __nvvm_bar0_popc(predicate);
}
__GPURUN_DEVICE__ int __syncthreads_and(int predicate) {
  return __nvvm_bar0_and(predicate);
}
__GPURUN_DEVICE__ int __syncthreads_or(int predicate) {
  return __nvvm_bar0_or(predicate);
}
__GPURUN_DEVICE__ void __syncwarp(unsigned int mask = 0xffffffffu) {
  __nvvm_bar_warp_sync(mask);
}

__GPURUN_DEVICE__ void __threadfence_block() {
  __nvvm_membar_cta();
}
__GPURUN_DEVICE__ void __threadfence() {
  __nvvm_membar_gl();
}
__GPURUN_DEVICE__ void __threadfence_system() {
  __nvvm_membar_sys();
}

// Named barriers (bar.sync id[, count]), as the CUDA headers' inline PTX for cooperative code.
__GPURUN_DEVICE__ void __barrier_sync(unsigned int id) {
  asm volatile("bar.sync %0;" ::"r"(id) : "memory");
}
__GPURUN_DEVICE__ void __barrier_sync_count(unsigned int id, unsigned int count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__GPURUN_DEVICE__ void __trap() {
  __builtin_trap();
}
__GPURUN_DEVICE__ void __brkpt() {
  asm volatile("brkpt;");
}
#ifdef __GPURUN_SM70__
__GPURUN_DEVICE__ void __nanosleep(unsigned int ns) {
  asm volatile("nanosleep.u32 %0;" ::"r"(ns));
}
#endif
