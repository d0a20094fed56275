// Device printf with an output sink: the text goes to the sink, whole calls at a time, and
// nothing reaches standard output.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

const char* k_printing_kernel = R"(
#include <cstdio>
extern "C" __global__ void k(int tag) {
  printf("tag %d block %d thread %d\n", tag, (int)blockIdx.x, (int)threadIdx.x);
}
)";

ContextOptions sink_into(std::string& text, int& calls, int workers = 1) {
  ContextOptions options;
  options.settings.host_threads = workers;
  options.device_output = [&text, &calls](std::string_view part) {
    text.append(part);
    ++calls;
  };
  return options;
}

TEST(VprintfCall, SinkReceivesEachCallInLaneOrderAndStdoutNothing) {
  std::string text;
  int calls = 0;
  EmuHarness h(k_printing_kernel, Language::cuda, sink_into(text, calls));
  testing::internal::CaptureStdout();
  h.run("k", Dim3{1, 1, 1}, Dim3{3, 1, 1}, 7);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(text, "tag 7 block 0 thread 0\ntag 7 block 0 thread 1\ntag 7 block 0 thread 2\n");
  EXPECT_EQ(calls, 3) << "one sink call per printf call";
}

TEST(VprintfCall, LinesFromParallelBlocksArriveWholeAndComplete) {
  std::string text;
  int calls = 0;
  EmuHarness h(k_printing_kernel, Language::cuda, sink_into(text, calls, 4));
  const unsigned blocks = 64, threads = 64;
  h.run("k", Dim3{blocks, 1, 1}, Dim3{threads, 1, 1}, 1);
  std::set<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.insert(line);
  EXPECT_EQ(calls, static_cast<int>(blocks * threads));
  ASSERT_EQ(lines.size(), blocks * threads) << "a line was lost, repeated or torn";
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      EXPECT_TRUE(lines.count(fmt::format("tag 1 block {} thread {}", b, t))) << b << " " << t;
}

TEST(VprintfCall, EachLaunchWritesToTheContextsSink) {
  std::string text;
  int calls = 0;
  EmuHarness h(k_printing_kernel, Language::cuda, sink_into(text, calls));
  h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, 1);
  h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, 2);
  EXPECT_EQ(text, "tag 1 block 0 thread 0\ntag 2 block 0 thread 0\n");
}

} // namespace
} // namespace gpurun::test
