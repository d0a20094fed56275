// Evaluates one PTX `.approx` (or related) instruction on the GPU over a range of input bit
// patterns and writes the raw result bits, so the CPU backend's model of the special-function
// unit can be derived from, and checked against, the hardware.
//
//   capture OP LO HI STRIDE OUT.bin [LOW_WORD]
//
// Inputs are the bit patterns LO, LO+STRIDE, ... below HI (LO and HI may be comma-separated
// lists: the ranges one after another) (u32; u16 for the half-precision
// forms, where only the low 16 bits count). For the f64 forms the pattern is the high word and
// LOW_WORD (default 0) the low word; the result's high and low words are both written. OUT.bin
// holds the results in input order, little-endian, 4 bytes each (8 for f64, 2 for f16/bf16).
// `capture list` prints the operations.
#include <utility>
#include <vector>

#include "ops.cuh"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const Op& op : kOps)
      std::printf("%s\n", op.name);
    return 0;
  }
  if (argc < 6) {
    std::fprintf(stderr, "usage: capture OP LO HI STRIDE OUT.bin [LOW_WORD] | capture list\n");
    return 2;
  }
  const Op* op = find_op(argv[1]);
  if (!op) {
    std::fprintf(stderr, "capture: unknown op '%s'\n", argv[1]);
    return 2;
  }
  // LO and HI may be comma-separated lists of the same length: the ranges' results, concatenated.
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (char *l = argv[2], *h = argv[3];;) {
    char *le = nullptr, *he = nullptr;
    const uint64_t lo = std::strtoull(l, &le, 0), hi = std::strtoull(h, &he, 0);
    ranges.emplace_back(lo, hi);
    if (*le != ',' || *he != ',')
      break;
    l = le + 1;
    h = he + 1;
  }
  const uint32_t stride = uint32_t(std::strtoul(argv[4], nullptr, 0));
  const uint32_t low = argc > 6 ? uint32_t(std::strtoul(argv[6], nullptr, 0)) : 0;
  const size_t width = result_width(*op);
  std::vector<unsigned char> host;
  for (auto [lo, hi] : ranges) {
    if (hi <= lo || stride == 0 || hi > (1ull << 32)) {
      std::fprintf(stderr, "capture: bad range\n");
      return 2;
    }
    const uint64_t n = (hi - lo + stride - 1) / stride;
    void* d_out = nullptr;
    CHECK(cudaMalloc(&d_out, n * width));
    evaluate(*op, uint32_t(lo), stride, n, low, d_out);
    const size_t at = host.size();
    host.resize(at + n * width);
    CHECK(cudaMemcpy(host.data() + at, d_out, n * width, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
  }
  FILE* f = std::fopen(argv[5], "wb");
  if (!f || std::fwrite(host.data(), 1, host.size(), f) != host.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "capture: cannot write %s\n", argv[5]);
    return 1;
  }
  return 0;
}
