#pragma once
// One-thread PTX snippets: inputs a/b/c (u32, f32 views) and x/y (u64, f64 views) are loaded into
// %r1 %r2 %r3 / %f1 %f2 %f3 / %rd1 %rd2 / %fd1 %fd2; the snippet leaves results in %r4 (u32),
// %rd4 (u64), %f4 (f32), %fd4 (f64) and %p3 (stored as u32 0/1).
#include <bit>
#include <cstdint>
#include <string>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {

struct SnippetInputs {
  std::uint32_t a = 0, b = 0, c = 0;
  std::uint64_t x = 0, y = 0;
};

struct SnippetOutputs {
  std::uint32_t r = 0;
  std::uint64_t rd = 0;
  float f = 0;
  double fd = 0;
  std::uint32_t p = 0;
};

inline std::string snippet_ptx(const std::string& body) {
  return R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out, .param .u64 k_in)
{
  .reg .pred %p<4>;
  .reg .b16 %rs<8>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<10>;
  .reg .f64 %fd<10>;
  ld.param.u64 %rd8, [k_out];
  ld.param.u64 %rd9, [k_in];
  ld.global.u32 %r1, [%rd9];
  ld.global.u32 %r2, [%rd9+4];
  ld.global.u32 %r3, [%rd9+8];
  ld.global.f32 %f1, [%rd9];
  ld.global.f32 %f2, [%rd9+4];
  ld.global.f32 %f3, [%rd9+8];
  ld.global.u64 %rd1, [%rd9+16];
  ld.global.u64 %rd2, [%rd9+24];
  ld.global.f64 %fd1, [%rd9+16];
  ld.global.f64 %fd2, [%rd9+24];
  mov.u32 %r4, 0;
  mov.u64 %rd4, 0;
  mov.f32 %f4, 0f00000000;
  mov.f64 %fd4, 0d0000000000000000;
  setp.ne.u32 %p3, %r4, 0;
)" + body +
         R"(
  st.global.u32 [%rd8], %r4;
  st.global.u64 [%rd8+8], %rd4;
  st.global.f32 [%rd8+16], %f4;
  st.global.f64 [%rd8+24], %fd4;
  selp.u32 %r9, 1, 0, %p3;
  st.global.u32 [%rd8+32], %r9;
  ret;
}
)";
}

inline SnippetOutputs run_snippet(const std::string& body, const SnippetInputs& in) {
  EmuHarness h(snippet_ptx(body));
  std::vector<std::uint64_t> input{std::uint64_t{in.a} | std::uint64_t{in.b} << 32, in.c, in.x,
                                   in.y};
  Buffer& inb = h.buffer(input);
  Buffer& outb = h.buffer(std::vector<std::uint64_t>(16, 0)); // 40+ is scratch
  h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, outb, inb);
  auto out = h.read<std::uint64_t>(outb);
  SnippetOutputs o;
  o.r = static_cast<std::uint32_t>(out[0]);
  o.rd = out[1];
  o.f = std::bit_cast<float>(static_cast<std::uint32_t>(out[2]));
  o.fd = std::bit_cast<double>(out[3]);
  o.p = static_cast<std::uint32_t>(out[4]);
  return o;
}

inline std::uint32_t fbits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}
inline std::uint64_t dbits(double d) {
  return std::bit_cast<std::uint64_t>(d);
}

} // namespace gpurun::test
