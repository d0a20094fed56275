// Loads a float from `offset` bytes into the buffer: a misaligned address unless offset % 4 == 0,
// which a GPU faults on (cudaErrorMisalignedAddress).
extern "C" __global__ void misaligned_load(const float* in, float* out, int offset) {
  out[0] = *reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + offset);
}
