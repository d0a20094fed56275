// Writes far outside any allocation (256 MiB strides): an illegal address on a GPU.
extern "C" __global__ void fault(float* x) {
  x[static_cast<unsigned long long>(threadIdx.x + 1) << 26] = 1.0f;
}
