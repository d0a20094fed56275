// Work-group sum in local memory: out[group] = sum of the group's elements. The local buffer is
// a parameter, sized by the launch (--arg partial=local:f32[256]).
__kernel void reduce_sum(__global const float* in, __global float* out, uint n,
                         __local float* partial) {
  uint tid = get_local_id(0);
  uint i = get_global_id(0);
  partial[tid] = i < n ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) {
    out[get_group_id(0)] = partial[0];
  }
}
