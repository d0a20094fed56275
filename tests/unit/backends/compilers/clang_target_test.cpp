#include "backends/compilers/clang_target.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

using clang_cuda::arch_candidates;

TEST(ClangTarget, Clang14StopsAtSm86AndLaterOnesAddNewerArchitectures) {
  const auto v14 = clang_cuda::supported_archs(14);
  ASSERT_FALSE(v14.empty());
  EXPECT_EQ(v14.front(), 50);
  EXPECT_EQ(v14.back(), 86);
  const auto v16 = clang_cuda::supported_archs(16);
  EXPECT_EQ(v16.back(), 90);
  EXPECT_EQ(clang_cuda::supported_archs(20).back(), 120);
}

TEST(ClangTarget, ComputeTargetMapsToTheNewestSupportedNotNewer) {
  EXPECT_EQ(arch_candidates("compute_90", 14).front(), 86);
  EXPECT_EQ(arch_candidates("compute_90", 16).front(), 90);
  EXPECT_EQ(arch_candidates("compute_80", 14).front(), 80);
  EXPECT_EQ(arch_candidates("compute_75", 14).front(), 75);
  EXPECT_EQ(arch_candidates("compute_89", 14).front(), 86);
  // The rest, newest first, for a clang that turns the first down.
  const auto all = arch_candidates("compute_80", 14);
  EXPECT_EQ(all, (std::vector<int>{80, 75, 72, 70, 62, 61, 60, 53, 52, 50}));
}

TEST(ClangTarget, CubinTargetIsAUsageErrorNamingTheAlternatives) {
  try {
    (void)arch_candidates("sm_90", 14);
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    const std::string what = e.what();
    EXPECT_NE(what.find("sm_90"), std::string::npos) << what;
    EXPECT_NE(what.find("compute_90"), std::string::npos) << what;
    EXPECT_NE(what.find("--compiler nvrtc"), std::string::npos) << what;
  }
}

TEST(ClangTarget, MalformedAndTooOldTargetsAreUsageErrors) {
  for (const char* bad : {"gfx90a", "compute_", "compute_9", "compute_90a", "compute_x0", ""}) {
    try {
      (void)arch_candidates(bad, 14);
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage) << bad;
    }
  }
  try {
    (void)arch_candidates("compute_35", 14);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("compute_50"), std::string::npos) << e.what();
  }
}

TEST(ClangTarget, PtxIsaIsTheArchitecturesOwnAndAtLeast60) {
  EXPECT_EQ(clang_cuda::ptx_isa(86), 71);
  EXPECT_EQ(clang_cuda::ptx_isa(80), 70);
  EXPECT_EQ(clang_cuda::ptx_isa(90), 78);
  EXPECT_EQ(clang_cuda::ptx_isa(75), 63);
  EXPECT_EQ(clang_cuda::ptx_isa(70), 60);
  EXPECT_EQ(clang_cuda::ptx_isa(60), 60); // sm_60 needs only 5.0; the *_sync intrinsics need 6.0
  EXPECT_EQ(clang_cuda::ptx_isa(52), 60);
}

} // namespace
} // namespace gpurun
