extern "C" __global__ void math_mix(const float* x, const double* y, const int* k, float* outf,
                                    double* outd, int* outi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  float a = x[i];
  outf[i] = sinf(a) + logf(fabsf(a) + 1.0f) * expf(-a) + sqrtf(fabsf(a)) / (a + 3.0f);
  double d = y[i];
  outd[i] = sqrt(fabs(d)) / (d + 2.0) + (double)k[i] * 0.5;
  int q = k[i];
  int den = (i % 7) + 1;
  outi[i] = q / den + q % den + (int)rintf(a) + (int)a;
}
