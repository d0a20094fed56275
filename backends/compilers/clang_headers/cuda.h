// Kernels include the driver header for CUdeviceptr-style typedefs or version checks.
#pragma once
#include <cuda_runtime.h>
#ifndef CUDA_VERSION
#define CUDA_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#endif
typedef unsigned long long CUdeviceptr;
