// gpurun's CUDA layer for clang: cuda_pipeline.h's asynchronous-copy primitives.
#pragma once
#include "cuda_pipeline_primitives.h"
