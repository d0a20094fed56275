// Line 3 uses a name that is declared nowhere: the build log must point at this file, line 3.
__kernel void broken(__global float* x) {
  x[0] = undeclared_name;
}
