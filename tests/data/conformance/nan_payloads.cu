// NaN payloads through chains of f32 arithmetic. A NaN result is the canonical NaN on the GPU,
// whatever NaN came in; the compiled CPU engine leaves out that step where no instruction can see
// the payload (a result read only by add/sub/mul/fma), so each chain here ends in something that
// does see it: a store of the bits, neg/abs, min, a compare, saturation.
extern "C" __global__ void nan_payloads(const unsigned* bits, unsigned n, unsigned* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * n) return;
  float p = __uint_as_float(bits[t / n]), q = __uint_as_float(bits[t % n]);
  unsigned* o = out + 8 * t;
  float s = p + q;
  float m = s * q;
  o[0] = __float_as_uint(m - p);
  o[1] = __float_as_uint(p + q);
  float f = fmaf(p, q, s);
  o[2] = __float_as_uint(fmaf(f, f, m));
  o[3] = __float_as_uint(-(p * q));
  o[4] = __float_as_uint(fabsf(p - q));
  o[5] = __float_as_uint(fminf(p + q, q));
  o[6] = (p * q) != (p * q) ? 1u : 0u;
  o[7] = __float_as_uint(__saturatef(p + q));
}
