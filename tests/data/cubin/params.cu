// Kernels whose cubin (nvcc -cubin -arch=sm_90 -o params.cubin params.cu, CUDA 13.0) the
// cubin parameter reader is tested on.
extern "C" __global__ void k3(float* a, int n, double s) { a[n] = s; }
extern "C" __global__ void k0() {}
struct S { char c[20]; };
extern "C" __global__ void ks(S s, float* o, char c) { o[0] = s.c[3] + c; }
