#include "backends/cpu/emu/decode.hpp"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backends/cpu/ptx/parser.hpp"
#include "base/error.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::emu {
namespace {

constexpr std::string_view k_header = ".version 8.0\n.target sm_90\n.address_size 64\n";

Program decode_text(const std::string& ptx) {
  return decode(ptx::parse_module(ptx, "t.ptx"));
}

const DecodedFunction& function(const Program& p, std::string_view name) {
  for (const auto& f : p.functions)
    if (f.name == name)
      return f;
  throw std::runtime_error(fmt::format("no function {}", name));
}

// The stack a thread needs is the deepest chain of frames: k → a (64 bytes) → b (32 bytes).
TEST(DecodeStack, LocalBytesCoverTheDeepestCallChain) {
  const Program p = decode_text(std::string(k_header) + R"(
.func b()
{
  .local .align 4 .b8 buf_b[32];
  ret;
}
.func a()
{
  .local .align 4 .b8 buf_a[64];
  call b, ();
  ret;
}
.visible .entry k()
{
  call b, ();
  call a, ();
  ret;
}
)");
  EXPECT_EQ(p.local_bytes_per_thread, 96u);
  EXPECT_FALSE(function(p, "a").recursive);
  EXPECT_FALSE(function(p, "b").recursive);
}

TEST(DecodeStack, CallsOnACycleAreRecursive) {
  const Program p = decode_text(std::string(k_header) + R"(
.func f()
{
  call f, ();
  ret;
}
.visible .entry k()
{
  call f, ();
  ret;
}
)");
  EXPECT_TRUE(function(p, "f").recursive);
  EXPECT_FALSE(function(p, "k").recursive);
  EXPECT_GE(p.local_bytes_per_thread, 1024u);
}

// The call graph was once walked recursively, so that a long chain of calls in hostile PTX
// overflowed gpurun's own stack.
TEST(DecodeStack, AChainOfAHundredThousandCallsIsDecoded) {
  constexpr int k_depth = 100000;
  std::string ptx(k_header);
  ptx += fmt::format(".func f{}()\n{{\n  ret;\n}}\n", k_depth);
  for (int i = k_depth - 1; i >= 1; --i)
    ptx += fmt::format(".func f{}()\n{{\n  call f{}, ();\n  ret;\n}}\n", i, i + 1);
  ptx += ".visible .entry k()\n{\n  call f1, ();\n  ret;\n}\n";
  const Program p = decode_text(ptx);
  EXPECT_EQ(p.functions.size(), std::size_t{k_depth} + 1);
  EXPECT_FALSE(function(p, "f1").recursive);
}

// Two kernels and a helper: `bad` has an instruction the emulator does not implement (line 9),
// `helper` another (line 15); `good` reaches neither, `calls_helper` reaches the helper's.
std::string two_kernels() {
  return std::string(k_header) + R"(.visible .entry bad(.param .u64 bad_out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [bad_out];
  bmsk.clamp.b32 %r1, %r2, %r2;
  st.global.u32 [%rd1], %r1;
}
.func helper()
{
  .reg .b32 %r<2>;
  brx.idx %r1, tbl;
  ret;
}
.visible .entry calls_helper()
{
  call helper, ();
  ret;
}
.visible .entry good(.param .u64 good_out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [good_out];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
}
)";
}

TEST(DecodeUnsupported, OnlyTheKernelsThatReachAnUnsupportedInstructionAreRefused) {
  const Program p = decode_text(two_kernels());
  EXPECT_EQ(function(p, "good").cannot_run, "");
  EXPECT_EQ(function(p, "bad").cannot_run,
            "kernel 'bad': unsupported PTX instruction 'bmsk.clamp.b32' at line 9");
  EXPECT_EQ(function(p, "calls_helper").cannot_run,
            "kernel 'calls_helper': unsupported PTX instruction 'brx.idx' at line 15, in "
            "function 'helper' that the kernel can call");
  EXPECT_NE(function(p, "helper").unsupported, "");
}

TEST(DecodeUnsupported, TheOtherKernelRunsAndTheRefusedOneSaysWhyAtLaunch) {
  test::EmuHarness h(two_kernels());
  Buffer& out = h.buffer(std::vector<std::uint32_t>{0});
  h.run("good", Dim3{1, 1, 1}, Dim3{1, 1, 1}, out);
  EXPECT_EQ(h.read<std::uint32_t>(out)[0], 42u);
  try {
    h.run("bad", Dim3{1, 1, 1}, Dim3{1, 1, 1}, out);
    FAIL() << "launching 'bad' must fail";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(std::string(e.what()),
              "kernel 'bad': unsupported PTX instruction 'bmsk.clamp.b32' at line 9");
  }
  EXPECT_THROW(h.run("calls_helper", Dim3{1, 1, 1}, Dim3{1, 1, 1}), Error);
  EXPECT_EQ(h.read<std::uint32_t>(out)[0], 42u); // the refused launch ran nothing
}

// Malformed PTX is still an error of the whole module.
TEST(DecodeUnsupported, AnUndeclaredLabelStillFailsTheModule) {
  EXPECT_THROW((void)decode_text(std::string(k_header) +
                                 ".visible .entry k()\n{\n  bra NOWHERE;\n}\n"),
               Error);
}

} // namespace
} // namespace gpurun::emu
