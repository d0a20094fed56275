// FP8 tensor-core products (mma.sync m16n8k32, sm_89 and later): one tile per warp,
// D = A·B + C with A 16×32 and B 32×8 of FP8 bytes (A row-major, B row-major by k), C and D
// 16×8 f32 row-major. Fragments are built by the PTX ISA's layout for m16n8k32 8-bit operands.
#include <cstdint>

__device__ unsigned bytes4(const unsigned char* p, int stride) {
  return unsigned(p[0]) | unsigned(p[stride]) << 8 | unsigned(p[2 * stride]) << 16 |
         unsigned(p[3 * stride]) << 24;
}

template <int Form>
__device__ void tile(const unsigned char* A, const unsigned char* B, const float* C, float* D,
                     int tiles) {
  const int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (w >= tiles)
    return;
  const int g = lane >> 2, q = lane & 3;
  const unsigned char* a = A + w * 512;
  const unsigned char* b = B + w * 256;
  const float* c = C + w * 128;
  float* d = D + w * 128;
  unsigned ra[4], rb[2];
  for (int r = 0; r < 4; ++r) // a_r: row g + 8·(r & 1), columns 4q… + 16·(r >> 1)
    ra[r] = bytes4(a + (g + 8 * (r & 1)) * 32 + 4 * q + 16 * (r >> 1), 1);
  for (int r = 0; r < 2; ++r) // b_r: k 4q… + 16·r, column g
    rb[r] = bytes4(b + (4 * q + 16 * r) * 8 + g, 8);
  float rc[4] = {c[g * 8 + 2 * q], c[g * 8 + 2 * q + 1], c[(g + 8) * 8 + 2 * q],
                 c[(g + 8) * 8 + 2 * q + 1]};
  float rd[4];
#define FP8_MMA(TYPES)                                                                             \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TYPES ".f32 {%0,%1,%2,%3}, "              \
               "{%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                                        \
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])                                \
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),           \
                 "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]))
  if (Form == 0)
    FP8_MMA("e4m3.e4m3");
  else if (Form == 1)
    FP8_MMA("e5m2.e5m2");
  else
    FP8_MMA("e4m3.e5m2");
  d[g * 8 + 2 * q] = rd[0];
  d[g * 8 + 2 * q + 1] = rd[1];
  d[(g + 8) * 8 + 2 * q] = rd[2];
  d[(g + 8) * 8 + 2 * q + 1] = rd[3];
}

extern "C" __global__ void mma_e4m3(const unsigned char* A, const unsigned char* B, const float* C,
                                    float* D, int tiles) {
  tile<0>(A, B, C, D, tiles);
}
extern "C" __global__ void mma_e5m2(const unsigned char* A, const unsigned char* B, const float* C,
                                    float* D, int tiles) {
  tile<1>(A, B, C, D, tiles);
}
extern "C" __global__ void mma_e4m3_e5m2(const unsigned char* A, const unsigned char* B,
                                         const float* C, float* D, int tiles) {
  tile<2>(A, B, C, D, tiles);
}
