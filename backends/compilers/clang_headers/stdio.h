// <stdio.h> for device code: printf, which clang lowers to the CUDA runtime's vprintf.
#pragma once
#include <stddef.h>
#ifndef EOF
#define EOF (-1)
#endif
extern "C" __device__ int vprintf(const char* format, const char* arguments);
extern "C" __device__ int printf(const char* format, ...);
