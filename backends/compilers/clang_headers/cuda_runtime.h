// gpurun's CUDA layer for clang, included before every kernel as nvcc includes cuda_runtime.h:
// built-in variables, vector types, synchronization, atomics, warp intrinsics, the integer and
// rounding intrinsics, the math library and printf, with the fixed-width integer types and the
// std:: math names that NVRTC's compatibility headers also make available without an #include.
#pragma once
#include "__gpurun_atomic.h"
#include "__gpurun_builtin_vars.h"
#include "__gpurun_defs.h"
#include "__gpurun_intrinsics.h"
#include "__gpurun_sync.h"
#include "__gpurun_warp.h"
#include "vector_functions.h"
#include "vector_types.h"
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
// nvcc's runtime header brings these along too: kernels use assert and clock_t without including
// <assert.h> or <time.h>.
#include <assert.h>
#include <time.h>

// The device heap, declared without an #include as nvcc and NVRTC declare it.
extern "C" __device__ void* malloc(size_t size);
extern "C" __device__ void free(void* pointer);
