#include "backends/kit/dynamic_library.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace gpurun {
namespace {

TEST(DynamicLibrary, ReportsEveryFailedCandidate) {
  const std::array<std::string, 2> names{"libgpurun-missing-a.so.1", "libgpurun-missing-b.so"};
  const auto opened = dl::open_first(names);
  EXPECT_FALSE(opened.handle);
  EXPECT_TRUE(opened.path.empty());
  EXPECT_NE(opened.error.find("libgpurun-missing-a.so.1"), std::string::npos) << opened.error;
  EXPECT_NE(opened.error.find("libgpurun-missing-b.so"), std::string::npos) << opened.error;
}

TEST(DynamicLibrary, OpensFirstLoadableAndBindsSymbols) {
  const std::array<std::string, 2> names{"libgpurun-missing.so", "libm.so.6"};
  const auto opened = dl::open_first(names);
  ASSERT_TRUE(opened.handle) << opened.error;
  EXPECT_EQ(opened.path, "libm.so.6");
  EXPECT_TRUE(opened.error.empty());
  double (*cosine)(double) = nullptr;
  ASSERT_TRUE(dl::bind(opened.handle.get(), cosine, "cos"));
  EXPECT_DOUBLE_EQ(cosine(0.0), 1.0);
  int (*absent)() = nullptr;
  EXPECT_FALSE(dl::bind(opened.handle.get(), absent, "gpurun_no_such_symbol"));
  EXPECT_EQ(absent, nullptr);
}

TEST(DynamicLibrary, FileOfNamesWhereTheLoaderFoundASoname) {
  const std::array<std::string, 1> names{"libm.so.6"};
  const auto opened = dl::open_first(names);
  ASSERT_TRUE(opened.handle) << opened.error;
  const auto file = dl::file_of(opened.handle.get());
  // The loader searched its path for the soname: the answer is the file it mapped.
  EXPECT_EQ(file.front(), '/') << file;
  EXPECT_TRUE(file.ends_with("/libm.so.6")) << file;
  EXPECT_EQ(dl::file_of(nullptr), "");
}

} // namespace
} // namespace gpurun
