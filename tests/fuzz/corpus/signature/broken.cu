// Does not compile: the bench suite reports the case as skipped and goes on.
extern "C" __global__ void broken(float* out) { out[0] = undeclared_name; }
