// Kernels whose arguments are pointers into one buffer and a struct passed by value with a
// pointer inside: what a captured launch hands gpurun's argument grammar (&NAME+OFFSET, records
// and --memory buffers).
struct View {
  float* data;
  int n;
  float scale;
};

__global__ void scale_view(View v, float* marker) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v.n)
    v.data[i] *= v.scale;
  if (i == 0)
    *marker = -1.0f;
}

// In place: y and x may be the same buffer at different offsets.
__global__ void shift_add(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}
