// Writes far outside its buffer (1 TiB away): a fault on any device.
__kernel void fault(__global float* x) {
  x[((ulong)get_local_id(0) + 1) << 38] = 1.0f;
}
