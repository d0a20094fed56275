// Only a template kernel: nothing is compiled until an instantiation is named.
template <typename T> __global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
