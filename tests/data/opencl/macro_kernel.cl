// A kernel declared through macros, as generated code and portability layers do: the source scan
// cannot see it, so its parameters come from the compiled program's argument info.
#define REAL float
#define KERNEL(name) __kernel void name
KERNEL(scale)(__global REAL* data, REAL factor, int n) {
  int i = get_global_id(0);
  if (i < n)
    data[i] *= factor;
}
