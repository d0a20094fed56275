// A kernel with C++ linkage: its symbol is mangled (_Z3whoPf).
__global__ void who(float* x) { x[threadIdx.x] = 1.0f; }
