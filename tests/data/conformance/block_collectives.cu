// Block and warp collectives the CPU backend must reproduce bit for bit: __syncthreads_count/_and/
// _or (bar.red.popc/.and/.or), __match_any_sync/__match_all_sync on 32- and 64-bit values
// (match.any/.all.sync.b32/.b64), with full and partial member masks. Values come from the thread
// index, so the expected results are a function of it (tests/e2e/conformance_reference_test.cpp).
extern "C" __global__ void block_collectives(unsigned* out) {
  const unsigned t = threadIdx.x, b = blockIdx.x, lane = t % 32, warp = t / 32;
  const unsigned v = (t * 7 + t / 5 + b) % 5;
  unsigned* o = out + 12 * (b * blockDim.x + t);
  o[0] = __syncthreads_count(v == 0);
  o[1] = __syncthreads_and(v < 4 || b == 0) != 0;
  o[2] = __syncthreads_or(t == 3 * b) != 0;
  o[3] = __match_any_sync(0xffffffffu, v);
  int pred = 0;
  // even warps hold one value, odd warps two
  const unsigned same = warp % 2 == 0 ? 9u : lane % 2;
  o[4] = __match_all_sync(0xffffffffu, same, &pred);
  o[5] = static_cast<unsigned>(pred);
  const unsigned long long wide = (static_cast<unsigned long long>(v) << 40) | (lane % 2);
  o[6] = __match_any_sync(0xffffffffu, wide);
  o[7] = __match_all_sync(0xffffffffu, static_cast<unsigned long long>(same) << 33, &pred);
  o[8] = static_cast<unsigned>(pred);
  o[9] = o[10] = o[11] = 0xffffffffu;
  if (lane < 16) { // a partial member mask: the low half of the warp
    o[9] = __match_any_sync(0x0000ffffu, v);
    o[10] = __match_all_sync(0x0000ffffu, warp % 2 == 0 ? 5u : v, &pred);
    o[11] = static_cast<unsigned>(pred);
  }
}
