// racecheck and initcheck on the emulator (emu/sanitize.cpp): what orders two accesses (block
// barriers, warp collectives), how hazards are graded, and what counts as written.
#include "backends/cpu/emu/sanitize.hpp"

#include <gtest/gtest.h>

#include "emu_harness.hpp"

namespace gpurun::test {
namespace {

ContextOptions with(bool DeviceSettings::*check) {
  ContextOptions options;
  options.settings.*check = true;
  options.settings.host_threads = 1;
  return options;
}

// What synchronize() reports, or "" when the launch had no error finding.
std::string error_of(EmuHarness& h) {
  try {
    h.context().synchronize();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* const kExchange = R"(
extern "C" __global__ void exchange(int* out, int sync) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x + 1;
  if (sync)
    __syncwarp();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
)";

TEST(Racecheck, LanesOfOneWarpNeedASyncwarp) {
  EmuHarness h(kExchange, Language::cuda, with(&DeviceSettings::racecheck));
  Buffer& out = h.buffer(std::vector<int>(32));
  h.launch("exchange", {1, 1, 1}, {32, 1, 1}, 0, out, 0);
  const std::string what = error_of(h);
  EXPECT_NE(what.find("racecheck found 1 error"), std::string::npos) << what;
  EXPECT_NE(what.find("read-after-write hazard on shared variable 'exchange::s'"),
            std::string::npos)
      << what;

  h.launch("exchange", {1, 1, 1}, {32, 1, 1}, 0, out, 1);
  EXPECT_EQ(error_of(h), "");
  EXPECT_TRUE(h.context().last_launch_warnings().empty());
}

const char* const kAcrossWarps = R"(
extern "C" __global__ void rotate(int* out, int sync) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  if (sync)
    __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 128];
}
)";

TEST(Racecheck, WarpsNeedABarrier) {
  EmuHarness h(kAcrossWarps, Language::cuda, with(&DeviceSettings::racecheck));
  Buffer& out = h.buffer(std::vector<int>(128));
  h.launch("rotate", {2, 1, 1}, {128, 1, 1}, 0, out, 0);
  const std::string what = error_of(h);
  // Warp 0 reads warp 1's slots before warp 1 ran: a write-after-read when warp 1 writes.
  EXPECT_NE(what.find("write-after-read hazard"), std::string::npos) << what;
  h.launch("rotate", {2, 1, 1}, {128, 1, 1}, 0, out, 1);
  EXPECT_EQ(error_of(h), "");
}

TEST(Racecheck, OffWhenNotAsked) {
  EmuHarness h(kAcrossWarps, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(128));
  h.launch("rotate", {1, 1, 1}, {128, 1, 1}, 0, out, 0);
  EXPECT_EQ(error_of(h), "");
}

// volatile: a compiler may forward the racing store to the load (clang does), leaving no
// shared access to check.
const char* const kSameValue = R"(
extern "C" __global__ void flag(int* out, int value) {
  __shared__ volatile int f;
  f = threadIdx.x < 64 ? 1 : value;
  __syncthreads();
  out[threadIdx.x] = f;
}
)";

TEST(Racecheck, SameValueWritesAreWarningsDifferentValuesErrors) {
  EmuHarness h(kSameValue, Language::cuda, with(&DeviceSettings::racecheck));
  Buffer& out = h.buffer(std::vector<int>(128));
  h.launch("flag", {1, 1, 1}, {128, 1, 1}, 0, out, 1);
  EXPECT_EQ(error_of(h), "");
  const auto warnings = h.context().last_launch_warnings();
  ASSERT_FALSE(warnings.empty());
  EXPECT_EQ(warnings[0], "kernel 'flag': racecheck found 1 warning");

  h.launch("flag", {1, 1, 1}, {128, 1, 1}, 0, out, 2);
  const std::string what = error_of(h);
  EXPECT_NE(what.find("racecheck found 1 error and 1 warning"), std::string::npos) << what;
}

const char* const kCopy = R"(
extern "C" __global__ void copy(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x];
}
)";

TEST(Initcheck, ABufferNobodyWroteIsUninitialized) {
  EmuHarness h(kCopy, Language::cuda, with(&DeviceSettings::initcheck));
  auto in = h.context().allocate(32 * sizeof(int));
  h.context().name_buffer(*in, "in");
  Buffer& out = h.buffer(std::vector<int>(32));
  h.launch("copy", {1, 1, 1}, {32, 1, 1}, 0, *in, out);
  const std::string what = error_of(h);
  EXPECT_NE(what.find("initcheck found 1 error"), std::string::npos) << what;
  EXPECT_NE(what.find("read of 4 bytes of uninitialized global memory"), std::string::npos) << what;
  EXPECT_NE(what.find("offset 0 of allocation #1 'in'"), std::string::npos) << what;
  EXPECT_NE(what.find("[32 times]"), std::string::npos) << what;

  h.context().memset(*in, 0); // a host write initializes it
  h.launch("copy", {1, 1, 1}, {32, 1, 1}, 0, *in, out);
  EXPECT_EQ(error_of(h), "");
}

const char* const kWriteThenRead = R"(
extern "C" __global__ void produce_consume(int* data, int n) {
  if (threadIdx.x < n)
    data[threadIdx.x] = threadIdx.x;
  __syncthreads();
  data[32 + threadIdx.x] = data[31 - threadIdx.x];
}
)";

TEST(Initcheck, WhatAKernelWroteIsInitialized) {
  EmuHarness h(kWriteThenRead, Language::cuda, with(&DeviceSettings::initcheck));
  auto data = h.context().allocate(64 * sizeof(int));
  h.launch("produce_consume", {1, 1, 1}, {32, 1, 1}, 0, *data, 32);
  EXPECT_EQ(error_of(h), "");
  auto fresh = h.context().allocate(64 * sizeof(int));
  h.launch("produce_consume", {1, 1, 1}, {32, 1, 1}, 0, *fresh, 30);
  const std::string what = error_of(h);
  // Threads 0 and 1 read slots 31 and 30, which no thread wrote.
  EXPECT_NE(what.find("[2 times]"), std::string::npos) << what;
}

const char* const kSyncwarpMask = R"(
extern "C" __global__ void masked(int* out, unsigned mask) {
  __syncwarp(mask);
  out[threadIdx.x] = 1;
}
)";

TEST(Synccheck, AMaskNamingLanesThePartialWarpLacks) {
  EmuHarness h(kSyncwarpMask, Language::cuda, with(&DeviceSettings::synccheck));
  Buffer& out = h.buffer(std::vector<int>(16));
  h.launch("masked", {1, 1, 1}, {16, 1, 1}, 0, out, 0xffffffffu);
  const std::string what = error_of(h);
  EXPECT_NE(what.find("it names lanes 0xffff0000, which the warp does not have"), std::string::npos)
      << what;
  h.launch("masked", {1, 1, 1}, {16, 1, 1}, 0, out, 0x0000ffffu);
  EXPECT_EQ(error_of(h), "");
}

const char* const kHalfShuffle = R"(
extern "C" __global__ void half_shuffle(int* out, int exit_early) {
  int v = threadIdx.x;
  if (exit_early && threadIdx.x >= 16)
    return;
  if (threadIdx.x < 16)
    v += __shfl_down_sync(0xffffffffu, v, 8);
  out[threadIdx.x] = v;
}
)";

// A .sync collective whose named members exit without reaching it: a device error without
// synccheck, a synccheck finding with it (whether the members exit before or after the others
// wait), and the waiting lanes go on.
TEST(Synccheck, MembersThatExitBeforeACollectiveAreAFinding) {
  for (int exit_early : {0, 1}) {
    SCOPED_TRACE(exit_early);
    EmuHarness plain(kHalfShuffle, Language::cuda, with(&DeviceSettings::memcheck));
    Buffer& out0 = plain.buffer(std::vector<int>(32));
    plain.launch("half_shuffle", {1, 1, 1}, {32, 1, 1}, 0, out0, exit_early);
    const std::string fault = error_of(plain);
    EXPECT_EQ(fault.find("synccheck"), std::string::npos) << fault;
    EXPECT_NE(fault.find("exited"), std::string::npos) << fault;

    EmuHarness h(kHalfShuffle, Language::cuda, with(&DeviceSettings::synccheck));
    Buffer& out = h.buffer(std::vector<int>(32, -1));
    h.launch("half_shuffle", {1, 1, 1}, {32, 1, 1}, 0, out, exit_early);
    const std::string what = error_of(h);
    EXPECT_NE(what.find("synccheck"), std::string::npos) << what;
    EXPECT_NE(what.find("lanes 0xffff0000 of the mask exited without reaching it"),
              std::string::npos)
        << what;
    // The lower half went on: lanes 0–7 read lanes 8–15, which waited with them.
    const std::vector<int> result = h.read<int>(out);
    for (int l = 0; l < 8; ++l)
      EXPECT_EQ(result[l], l + l + 8) << l;
  }
}

TEST(ThreadRanges, RunsOfXPerRow) {
  std::vector<bool> set(64);
  for (int t : {0, 1, 2, 5, 40, 41})
    set[t] = true;
  EXPECT_EQ(emu::thread_ranges(Dim3{64, 1, 1}, set), "threads (0..2, 5, 40..41)");
  EXPECT_EQ(emu::thread_ranges(Dim3{32, 2, 1}, set), "threads ((0..2,0,0), (5,0,0), (8..9,1,0))");
  std::vector<bool> one(4);
  one[3] = true;
  EXPECT_EQ(emu::thread_ranges(Dim3{4, 1, 1}, one), "thread (3)");
}

} // namespace
} // namespace gpurun::test
