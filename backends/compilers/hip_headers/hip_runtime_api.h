// gpurun's HIP layer: the runtime API header brings the kernel-side layer (host calls have no
// place in a kernel file that gpurun runs).
#pragma once
#include <hip/hip_runtime.h>
