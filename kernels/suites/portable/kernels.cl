// kernels.cu's three kernels in OpenCL C, operation for operation (scripts/opencl-vs-emulator.py).

__kernel void vector_add(__global const float* restrict a, __global const float* restrict b,
                         __global float* restrict c, uint n) {
  const uint i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

#define TILE 16
__kernel void matmul_tiled(__global const float* restrict A, __global const float* restrict B,
                           __global float* restrict C, int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int row = get_group_id(1) * TILE + ty;
  const int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    const int ac = t * TILE + tx;
    const int br = t * TILE + ty;
    As[ty][tx] = row < n && ac < n ? A[row * n + ac] : 0.0f;
    Bs[ty][tx] = br < n && col < n ? B[br * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__kernel void reduce_blocks(__global const float* restrict in, __global float* restrict out,
                            uint n) {
  __local float partial[256];
  const uint t = get_local_id(0);
  const uint i = get_group_id(0) * get_local_size(0) + t;
  partial[t] = i < n ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    out[get_group_id(0)] = partial[0];
}
