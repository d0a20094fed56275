// The seed program's kernel in OpenCL C: add a scalar to every element of a vector.
__kernel void scalar_add(__global float* vector, int size, float scalar) {
  int idx = get_global_id(0);
  if (idx < size) {
    vector[idx] += scalar;
  }
}
