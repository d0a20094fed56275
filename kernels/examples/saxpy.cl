// y = a * x + y; REAL is float unless the build defines it (-D REAL=double).
#ifndef REAL
#define REAL float
#endif

__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void saxpy(REAL a,
                                                                      __global const REAL* restrict x,
                                                                      __global REAL* restrict y,
                                                                      int n) {
  int i = get_global_id(0);
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}
