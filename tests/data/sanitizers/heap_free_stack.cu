// memcheck (device heap): frees the address of a local array instead of a malloc'ed block.
extern "C" __global__ void wrong_owner(const int* in, int* out) {
  int local[4];
  int* p = threadIdx.x % 2 ? static_cast<int*>(malloc(sizeof(local))) : local;
  for (int k = 0; k < 4; ++k)
    p[k] = in[threadIdx.x] + k;
  out[threadIdx.x] = p[threadIdx.x % 4];
  free(p); // the even threads free a local array
}
