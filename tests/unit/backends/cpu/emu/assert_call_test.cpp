// Device assert on the emulator: `call __assertfail` as NVRTC and clang emit it. Each failing
// lane prints CUDA's line on standard error, the launch fails with the first one, and an assert
// that holds leaves the kernel's results alone.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

// A .global byte array holding `text` in characters of `char_size` bytes, zero-terminated.
std::string string_array(const std::string& name, std::string_view text, int char_size) {
  std::vector<int> bytes;
  for (const char c : text)
    for (int k = 0; k < char_size; ++k)
      bytes.push_back(k == 0 ? static_cast<unsigned char>(c) : 0);
  for (int k = 0; k < char_size; ++k)
    bytes.push_back(0);
  return fmt::format(".global .align {} .b8 {}[{}] = {{{}}};\n", char_size, name, bytes.size(),
                     fmt::join(bytes, ", "));
}

// Kernel NAME(u32* out, u32 lo, u32 hi): out[i] = i for the grid-wide thread index i, after
// asserting !(lo <= i < hi) — the assert fails exactly in the threads lo … hi-1. The strings are
// SUFFIX's, of CHAR_SIZE-byte characters; FUNCTION is a symbol, or "0" for a null pointer.
std::string kernel(const std::string& name, const std::string& suffix, const std::string& function,
                   int char_size) {
  const std::string function_address =
      function == "0" ? "mov.u64 %rd7, 0;"
                      : fmt::format("mov.u64 %rd6, {}; cvta.global.u64 %rd7, %rd6;", function);
  return fmt::format(R"(
.visible .entry {0}(.param .u64 {0}_out, .param .u32 {0}_lo, .param .u32 {0}_hi)
{{
  .reg .pred %p<3>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [{0}_out];
  ld.param.u32 %r1, [{0}_lo];
  ld.param.u32 %r2, [{0}_hi];
  mov.u32 %r3, %ctaid.z;
  mov.u32 %r4, %nctaid.y;
  mov.u32 %r5, %ctaid.y;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  mov.u32 %r7, %nctaid.x;
  mov.u32 %r8, %ctaid.x;
  mad.lo.s32 %r9, %r6, %r7, %r8;
  mov.u32 %r10, %ntid.x;
  mov.u32 %r11, %ntid.y;
  mov.u32 %r12, %ntid.z;
  mul.lo.s32 %r13, %r10, %r11;
  mul.lo.s32 %r13, %r13, %r12;
  mov.u32 %r14, %tid.z;
  mov.u32 %r15, %tid.y;
  mad.lo.s32 %r16, %r14, %r11, %r15;
  mov.u32 %r17, %tid.x;
  mad.lo.s32 %r16, %r16, %r10, %r17;
  mad.lo.s32 %r18, %r9, %r13, %r16;
  setp.lt.u32 %p1, %r18, %r1;
  setp.ge.u32 %p2, %r18, %r2;
  or.pred %p1, %p1, %p2;
  @%p1 bra $L_holds;
  mov.u64 %rd2, message{1};
  cvta.global.u64 %rd3, %rd2;
  mov.u64 %rd4, file{1};
  cvta.global.u64 %rd5, %rd4;
  {2}
  {{
  .reg .b32 temp_param_reg;
  .param .b64 param0;
  st.param.b64 [param0+0], %rd3;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd5;
  .param .b32 param2;
  st.param.b32 [param2+0], 12;
  .param .b64 param3;
  st.param.b64 [param3+0], %rd7;
  .param .b64 param4;
  st.param.b64 [param4+0], {3};
  call.uni
  __assertfail,
  (
  param0,
  param1,
  param2,
  param3,
  param4
  );
  }}
$L_holds:
  cvta.to.global.u64 %rd8, %rd1;
  mul.wide.u32 %rd9, %r18, 4;
  add.s64 %rd10, %rd8, %rd9;
  st.global.u32 [%rd10], %r18;
  ret;
}}
)",
                     name, suffix, function_address, char_size);
}

const std::string k_module = std::string(R"(
.version 7.0
.target sm_80
.address_size 64
.extern .func __assertfail
(
  .param .b64 __assertfail_param_0,
  .param .b64 __assertfail_param_1,
  .param .b32 __assertfail_param_2,
  .param .b64 __assertfail_param_3,
  .param .b64 __assertfail_param_4
)
;
)") + string_array("message", "i < n", 1) +
                             string_array("file", "f.cu", 1) +
                             string_array("function", "void k(float*, int)", 1) +
                             string_array("message_w", "i < n", 2) +
                             string_array("file_w", "w.cu", 2) +
                             kernel("narrow", "", "function", 1) + kernel("wide", "_w", "0", 2);

struct Output {
  std::string text;
  int calls = 0;
};

ContextOptions sink_into(Output& out) {
  ContextOptions options;
  options.settings.host_threads = 1;
  options.device_output = [&out](std::string_view part) {
    out.text.append(part);
    ++out.calls;
  };
  return options;
}

struct Launch {
  std::string error;   ///< the launch's error message ("" when it succeeded)
  std::string printed; ///< what it wrote on standard error
};

// Runs `name` over grid (1,2,1) of blocks (4,2,2): 32 threads, i = 16 * block.y + thread index.
Launch run(EmuHarness& h, const std::string& name, std::uint32_t lo, std::uint32_t hi) {
  Buffer& out = h.buffer(std::vector<std::uint32_t>(32, 0xffffffffu));
  Launch launch;
  testing::internal::CaptureStderr();
  try {
    h.run(name, Dim3{1, 2, 1}, Dim3{4, 2, 2}, out, lo, hi);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device) << e.what();
    launch.error = e.what();
  }
  launch.printed = testing::internal::GetCapturedStderr();
  if (launch.error.empty()) {
    const auto values = h.read<std::uint32_t>(out);
    for (std::uint32_t i = 0; i < values.size(); ++i)
      EXPECT_EQ(values[i], i) << i;
  }
  return launch;
}

TEST(AssertCall, FailingLanePrintsCudasLineAndTheLaunchFailsWithIt) {
  Output out;
  EmuHarness h(k_module, Language::ptx, sink_into(out));
  // i = 25: block (0,1,0), thread 9 of the block = (1,0,1) in a 4×2×2 block.
  const std::string line =
      "f.cu:12: void k(float*, int): block: [0,1,0], thread: [1,0,1] Assertion `i < n` failed.";
  const Launch launch = run(h, "narrow", 25, 26);
  EXPECT_EQ(launch.error, "kernel 'narrow' failed an assertion: " + line);
  EXPECT_EQ(launch.printed, line + "\n") << "on standard error, as the driver prints it";
  EXPECT_EQ(out.text, "") << "device printf's output is left alone";
  EXPECT_EQ(out.calls, 0);
}

TEST(AssertCall, EveryFailingLanePrintsInLaneOrderAndTheFirstIsReported) {
  Output out;
  EmuHarness h(k_module, Language::ptx, sink_into(out));
  const Launch launch = run(h, "narrow", 18, 21); // threads (2,0,0), (3,0,0), (0,1,0)
  const std::string head = "f.cu:12: void k(float*, int): block: [0,1,0], thread: ";
  EXPECT_EQ(launch.printed, head + "[2,0,0] Assertion `i < n` failed.\n" + head +
                                "[3,0,0] Assertion `i < n` failed.\n" + head +
                                "[0,1,0] Assertion `i < n` failed.\n");
  EXPECT_EQ(launch.error,
            "kernel 'narrow' failed an assertion: " + head + "[2,0,0] Assertion `i < n` failed.");
}

TEST(AssertCall, AssertThatHoldsLeavesResultsAndOutputAlone) {
  Output out;
  EmuHarness h(k_module, Language::ptx, sink_into(out));
  const Launch launch = run(h, "narrow", 0, 0);
  EXPECT_EQ(launch.error, "");
  EXPECT_EQ(launch.printed, "");
  EXPECT_EQ(out.text, "");
}

TEST(AssertCall, WideCharactersAndNoFunctionName) {
  // Windows' assert passes wchar_t strings (charSize 2) and no function: the runtime leaves the
  // name and its colon out.
  Output out;
  EmuHarness h(k_module, Language::ptx, sink_into(out));
  const std::string line = "w.cu:12: block: [0,0,0], thread: [0,0,0] Assertion `i < n` failed.";
  const Launch launch = run(h, "wide", 0, 1);
  EXPECT_EQ(launch.error, "kernel 'wide' failed an assertion: " + line);
  EXPECT_EQ(launch.printed, line + "\n");
}

TEST(AssertCall, WithoutASinkStandardOutputGetsNothing) {
  ContextOptions options;
  options.settings.host_threads = 1;
  EmuHarness h(k_module, Language::ptx, options);
  testing::internal::CaptureStdout();
  const Launch launch = run(h, "narrow", 0, 1);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(launch.printed,
            "f.cu:12: void k(float*, int): block: [0,0,0], thread: [0,0,0] Assertion `i < n` "
            "failed.\n");
}

TEST(AssertCall, EachLaunchReportsItsOwnAssertion) {
  Output out;
  EmuHarness h(k_module, Language::ptx, sink_into(out));
  EXPECT_NE(run(h, "narrow", 0, 1).error.find("block: [0,0,0], thread: [0,0,0]"),
            std::string::npos);
  EXPECT_NE(run(h, "narrow", 31, 32).error.find("block: [0,1,0], thread: [3,1,1]"),
            std::string::npos);
  EXPECT_EQ(run(h, "narrow", 0, 0).error, "");
}

} // namespace
} // namespace gpurun::test
