#include "backends/cpu/emu/decode.hpp"

#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "backends/cpu/ptx/parser.hpp"

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

} // namespace
} // namespace gpurun::emu
