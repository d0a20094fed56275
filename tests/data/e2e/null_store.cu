// Stores through a null pointer taken from the buffer's first element being 0 (so the compiler
// cannot see it and drop the store).
extern "C" __global__ void null_store(unsigned long long* slots) {
  float* p = reinterpret_cast<float*>(slots[0]);
  *p = 1.0f;
}
