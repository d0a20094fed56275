#include "pipeline/language.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

TEST(Language, DetectsEveryKnownExtension) {
  EXPECT_EQ(detect_language("k.cu"), Language::cuda);
  EXPECT_EQ(detect_language("dir/k.cuh"), Language::cuda);
  EXPECT_EQ(detect_language("k.hip"), Language::hip);
  EXPECT_EQ(detect_language("k.cl"), Language::opencl);
  EXPECT_EQ(detect_language("k.metal"), Language::metal);
  EXPECT_EQ(detect_language("/tmp/a.b/k.ptx"), Language::ptx);
  EXPECT_EQ(detect_language("K.CU"), Language::cuda);
}

TEST(Language, UnknownExtensionIsAUsageErrorNamingTheFile) {
  for (const char* name : {"kernel.cpp", "kernel", "kernel.cu.bak", "a.c"}) {
    try {
      (void)detect_language(name);
      FAIL() << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

TEST(Language, Names) {
  EXPECT_EQ(language_name(Language::cuda), "cuda");
  EXPECT_EQ(language_name(Language::hip), "hip");
  EXPECT_EQ(language_name(Language::opencl), "opencl");
  EXPECT_EQ(language_name(Language::metal), "metal");
  EXPECT_EQ(language_name(Language::ptx), "ptx");
}

TEST(LoadKernelSource, ReadsTextAndDetectsLanguage) {
  const auto path = test::temp_dir() / "k.ptx";
  std::ofstream(path) << ".version 8.0\n";
  const KernelSource source = load_kernel_source(path);
  EXPECT_EQ(source.text, ".version 8.0\n");
  EXPECT_EQ(source.language, Language::ptx);
  EXPECT_EQ(source.path, path);
}

// nvcc's fat binary runs through its PTX: the highest architecture's, decompressed.
TEST(LoadKernelSource, AFatBinaryIsReadAsItsPtx) {
  const auto dir = test::source_dir() / "tests/data/cubin";
  EXPECT_EQ(detect_language("k.FATBIN"), Language::ptx);
  const KernelSource source = load_kernel_source(dir / "params.fatbin");
  EXPECT_EQ(source.language, Language::ptx);
  EXPECT_NE(source.text.find(".target sm_90"), std::string::npos);
  EXPECT_NE(source.text.find(".entry k3("), std::string::npos);
  EXPECT_EQ(source.text.find('\0'), std::string::npos);
  EXPECT_EQ(source.image_format, "fatbin");
  EXPECT_EQ(source.image.size(), std::filesystem::file_size(dir / "params.fatbin"));
  // Machine code only: the image, for the CUDA backend, and no PTX text.
  const KernelSource sass = load_kernel_source(dir / "sass_only.fatbin");
  EXPECT_TRUE(sass.text.empty());
  EXPECT_EQ(sass.image_format, "fatbin");
  // What an image is comes from its bytes: a cubin under another name is a cubin.
  const auto renamed = test::temp_dir() / "k.fatbin";
  std::filesystem::copy_file(dir / "params.cubin", renamed);
  EXPECT_EQ(load_kernel_source(renamed).image_format, "cubin");
  EXPECT_EQ(load_kernel_source(dir / "params.cubin").image_format, "cubin");
  const auto text = test::temp_dir() / "not.fatbin";
  std::ofstream(text) << "hello";
  EXPECT_EQ(test::usage_message([&] { (void)load_kernel_source(text); }),
            text.string() + ": not a fat binary (its magic is not 0xBA55ED50)");
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
