#include "backends/compilers/probe_memo.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

TEST(ProbeMemo, AFileIsKnownByItsInodeSizeAndTime) {
  const auto dir = test::temp_dir();
  const auto file = (dir / "libx.so").string();
  EXPECT_EQ(probe_memo::file_identity(file), file + " -");
  std::ofstream(file) << "one";
  const std::string first = probe_memo::file_identity(file);
  EXPECT_TRUE(first.starts_with(file + " ")) << first;
  EXPECT_EQ(probe_memo::file_identity(file), first);
  std::ofstream(file) << "a longer one";
  EXPECT_NE(probe_memo::file_identity(file), first);
}

TEST(ProbeMemo, WhatIsKeptIsReadBackUnderItsKey) {
  const auto dir = test::temp_dir();
  const char* saved = std::getenv("GPURUN_CACHE_DIR");
  const std::string previous = saved != nullptr ? saved : "";
  ::setenv("GPURUN_CACHE_DIR", (dir / "cache").c_str(), 1);
  const auto memo = probe_memo::path_for("clang", "key one");
  EXPECT_EQ(memo.parent_path(), dir / "cache" / "probes");
  EXPECT_TRUE(memo.filename().string().starts_with("clang-"));
  EXPECT_NE(memo, probe_memo::path_for("clang", "key two"));
  EXPECT_NE(memo, probe_memo::path_for("nvrtc", "key one"));
  EXPECT_FALSE(probe_memo::read(memo));
  probe_memo::keep(memo, "clang version 14.0.6\n");
  EXPECT_EQ(probe_memo::read(memo), "clang version 14.0.6\n");
  if (saved != nullptr)
    ::setenv("GPURUN_CACHE_DIR", previous.c_str(), 1);
  else
    ::unsetenv("GPURUN_CACHE_DIR");
}

} // namespace
} // namespace gpurun
