// The micro-benchmark kernels (tests/data/ptx/src/*.cu) in OpenCL C, for PoCL. The accumulation
// in matmul_tiled is an explicit fma() because NVRTC contracts the CUDA source's a * b + acc into
// fma.rn.f32, and the outputs are compared with the emulator's bit for bit.
__kernel void vector_add(__global const float* restrict a, __global const float* restrict b,
                         __global float* restrict c, uint n) {
  uint i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

#define TILE 16
__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           int n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int ac = t * TILE + tx;
    int br = t * TILE + ty;
    As[ty][tx] = (row < n && ac < n) ? A[row * n + ac] : 0.0f;
    Bs[ty][tx] = (br < n && col < n) ? B[br * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

__kernel void reduce_block(__global const float* in, __global float* out, uint n,
                           __local float* sdata) {
  uint tid = get_local_id(0);
  uint i = get_group_id(0) * get_local_size(0) + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    out[get_group_id(0)] = sdata[0];
}
