#include "backends/compilers/clang_locate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

using clang_cuda::parse_clang_version;

TEST(ClangLocate, VersionFromVersionOutput) {
  EXPECT_EQ(parse_clang_version("Debian clang version 14.0.6\nTarget: x86_64-pc-linux-gnu\n"),
            "14.0.6");
  EXPECT_EQ(parse_clang_version("Ubuntu clang version 18.1.3 (1ubuntu1)\n"), "18.1.3");
  EXPECT_EQ(parse_clang_version("clang version 19.1.0 (https://github.com/llvm/llvm-project)"),
            "19.1.0");
  EXPECT_FALSE(parse_clang_version("gcc (Debian 12.2.0-14) 12.2.0"));
  EXPECT_FALSE(parse_clang_version(""));
}

TEST(ClangLocate, LibclcCandidatesStartNextToThatLlvm) {
  const auto c = clang_cuda::libclc_candidates("/no/such/clang", 17);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), "/usr/lib/llvm-17/lib/clc/nvptx64--nvidiacl.bc");
  EXPECT_NE(std::find(c.begin(), c.end(), "/usr/lib/clc/nvptx64--nvidiacl.bc"), c.end());
  EXPECT_NE(std::find(c.begin(), c.end(), "/usr/share/clc/nvptx64--nvidiacl.bc"), c.end());

  // A clang at <prefix>/bin/clang is looked for in <prefix>/lib/clc first.
  const auto dir = test::temp_dir();
  std::filesystem::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "clang") << "";
  const auto mine = clang_cuda::libclc_candidates((dir / "bin" / "clang").string(), 15);
  EXPECT_EQ(mine.front(),
            (std::filesystem::canonical(dir) / "lib" / "clc" / "nvptx64--nvidiacl.bc").string());
}

TEST(ClangLocate, OverrideThatIsNotAProgramSaysSo) {
  const auto found = clang_cuda::probe_installation("/no/such/clang", "");
  EXPECT_FALSE(found.availability.available);
  EXPECT_NE(found.availability.reason.find("GPURUN_CLANG=/no/such/clang"), std::string::npos)
      << found.availability.reason;
}

TEST(ClangLocate, OverrideThatIsNotClangSaysWhatItIs) {
  // A program that answers --version as something else.
  const auto dir = test::temp_dir();
  const auto fake = dir / "fake-clang";
  std::ofstream(fake) << "#!/bin/sh\necho 'gcc (Debian 12.2.0) 12.2.0'\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto found = clang_cuda::probe_installation(fake.string(), "");
  EXPECT_FALSE(found.availability.available);
  EXPECT_NE(found.availability.reason.find("does not say it is clang"), std::string::npos)
      << found.availability.reason;
}

TEST(ClangLocate, TooOldClangIsRefusedWithItsVersion) {
  const auto dir = test::temp_dir();
  const auto fake = dir / "old-clang";
  std::ofstream(fake) << "#!/bin/sh\necho 'clang version 11.1.0'\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto found = clang_cuda::probe_installation(fake.string(), "");
  EXPECT_FALSE(found.availability.available);
  EXPECT_NE(found.availability.reason.find("clang 11.1.0"), std::string::npos)
      << found.availability.reason;
  EXPECT_NE(found.availability.reason.find("clang 14"), std::string::npos)
      << found.availability.reason;
}

TEST(ClangLocate, MissingLibclcOverrideIsNamed) {
  const auto dir = test::temp_dir();
  const auto fake = dir / "clang";
  std::ofstream(fake) << "#!/bin/sh\necho 'clang version 14.0.6'\n";
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto found = clang_cuda::probe_installation(fake.string(), "/no/such/libclc.bc");
  ASSERT_TRUE(found.availability.available) << found.availability.reason;
  EXPECT_EQ(found.availability.version, "14.0.6");
  EXPECT_EQ(found.major, 14);
  EXPECT_EQ(found.availability.location, fake.string());
  EXPECT_TRUE(found.libclc.empty());
  EXPECT_NE(found.libclc_reason.find("/no/such/libclc.bc"), std::string::npos)
      << found.libclc_reason;
}

TEST(ClangLocate, TheVersionIsAskedOnceAndAgainWhenTheProgramChanges) {
  const auto dir = test::temp_dir();
  const auto fake = dir / "clang";
  const auto calls = dir / "calls";
  const auto write = [&](const char* version) {
    std::ofstream(fake) << "#!/bin/sh\necho x >> '" << calls.string() << "'\necho 'clang version "
                        << version << "'\n";
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  };
  const auto asked = [&] {
    std::ifstream in(calls);
    return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  };
  const char* saved = std::getenv("GPURUN_CACHE_DIR");
  const std::string previous = saved != nullptr ? saved : "";
  ::setenv("GPURUN_CACHE_DIR", (dir / "cache").c_str(), 1);
  write("14.0.6");
  EXPECT_EQ(clang_cuda::probe_installation(fake.string(), "").availability.version, "14.0.6");
  EXPECT_EQ(clang_cuda::probe_installation(fake.string(), "").availability.version, "14.0.6");
  EXPECT_EQ(asked(), 1); // the second answer came from the cache
  write("15.0.10");      // an upgrade: another size and modification time
  EXPECT_EQ(clang_cuda::probe_installation(fake.string(), "").availability.version, "15.0.10");
  EXPECT_EQ(asked(), 2);
  if (saved != nullptr)
    ::setenv("GPURUN_CACHE_DIR", previous.c_str(), 1);
  else
    ::unsetenv("GPURUN_CACHE_DIR");
}

TEST(ClangLocate, ThisMachinesClang) {
  const auto& found = clang_cuda::installation();
  if (!found.availability.available)
    GTEST_SKIP() << "clang unavailable: " << found.availability.reason;
  EXPECT_GE(found.major, clang_cuda::minimum_major);
  EXPECT_TRUE(found.availability.reason.empty());
  EXPECT_TRUE(std::filesystem::exists(found.availability.location));
  if (!found.libclc.empty())
    EXPECT_TRUE(std::filesystem::exists(found.libclc));
  else
    EXPECT_FALSE(found.libclc_reason.empty());
}

} // namespace
} // namespace gpurun
