// Evaluates a cubic whose coefficients come in constant memory, counting the evaluations with an
// atomic (OpenCL C has no host-written program-scope variables: both are parameters).
__kernel void polynomial(__global const float* x, __global float* y, int n,
                         __constant float* coefficients, __global volatile uint* evaluations) {
  int i = get_global_id(0);
  if (i < n) {
    float v = x[i];
    y[i] = ((coefficients[3] * v + coefficients[2]) * v + coefficients[1]) * v + coefficients[0];
    atomic_inc(evaluations);
  }
}
