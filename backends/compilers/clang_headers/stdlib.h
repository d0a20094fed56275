// <stdlib.h> for device code: abs and friends (with <math.h>'s overloads) and the device heap
// functions nvcc declares.
#pragma once
#include <math.h>
#include <stddef.h>
extern "C" __device__ void* malloc(size_t size);
extern "C" __device__ void free(void* pointer);
