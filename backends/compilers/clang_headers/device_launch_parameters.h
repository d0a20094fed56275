// Part of the CUDA runtime here; cuda_runtime.h declares it all.
#pragma once
#include <cuda_runtime.h>
