#include "base/read_file.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "pipeline/language.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

TEST(ReadFile, ReturnsEveryByteIncludingNul) {
  const auto path = test::temp_dir() / "bytes.bin";
  const std::string bytes("a\0b\r\n", 5);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(read_file(path), bytes);
}

TEST(ReadFile, MissingFileIsNullopt) {
  EXPECT_FALSE(read_file(test::temp_dir() / "absent.txt").has_value());
}

TEST(LoadKernelSource, ReadsTextAndDetectsLanguage) {
  const auto path = test::temp_dir() / "k.ptx";
  std::ofstream(path) << ".version 8.0\n";
  const KernelSource source = load_kernel_source(path);
  EXPECT_EQ(source.text, ".version 8.0\n");
  EXPECT_EQ(source.language, Language::ptx);
  EXPECT_EQ(source.path, path);
}

TEST(LoadKernelSource, MissingFileIsAUsageErrorNamingIt) {
  try {
    (void)load_kernel_source(test::temp_dir() / "missing.cu");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("missing.cu"), std::string::npos);
  }
}

} // namespace
} // namespace gpurun
