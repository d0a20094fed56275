#include "backends/kit/cubin_params.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace gpurun::kit {
namespace {

std::vector<std::byte> cubin(const char* name = "params.cubin") {
  const std::string text = test::slurp(test::source_dir() / "tests/data/cubin" / name);
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  EXPECT_FALSE(bytes.empty());
  return bytes;
}

std::string error_of(std::span<const std::byte> bytes) {
  try {
    (void)cubin_params(bytes);
  } catch (const CubinError& e) {
    return e.what();
  }
  return "";
}

// The layouts nvcc gave the kernels of tests/data/cubin/params.cu, as its PTX declares them.
TEST(CubinParams, EveryKernelWithItsParametersInOrder) {
  const auto kernels = cubin_params(cubin());
  ASSERT_EQ(kernels.size(), 3u);
  auto layout = [&](const std::string& name) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const CubinParam& p : kernels.at(name))
      out.emplace_back(p.offset, p.size);
    return out;
  };
  using L = std::vector<std::pair<std::size_t, std::size_t>>;
  EXPECT_EQ(layout("k3"), (L{{0, 8}, {8, 4}, {16, 8}}));
  EXPECT_EQ(layout("k0"), L{});
  EXPECT_EQ(layout("ks"), (L{{0, 20}, {24, 8}, {32, 1}}));
}

// NVRTC's cubin of tests/data/sanitizers/clean_matmul_tiled.cu: matmul(const float*, const
// float*, float*, int), whose info records include byte-valued ones.
TEST(CubinParams, NvrtcCubin) {
  const auto kernels = cubin_params(cubin("nvrtc_matmul.cubin"));
  ASSERT_EQ(kernels.count("matmul"), 1u);
  const auto& p = kernels.at("matmul");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].offset, 0u);
  EXPECT_EQ(p[1].offset, 8u);
  EXPECT_EQ(p[2].offset, 16u);
  EXPECT_EQ(p[3].offset, 24u);
  EXPECT_EQ(p[3].size, 4u);
}

TEST(CubinParams, DamagedImagesAreErrorsNotCrashes) {
  const auto good = cubin();
  EXPECT_EQ(error_of(std::span(good).first(3)), "not an ELF file");
  std::vector<std::byte> wrong_class = good;
  wrong_class[4] = std::byte{1};
  EXPECT_EQ(error_of(wrong_class), "not a 64-bit little-endian ELF file");
  // Cut inside the ELF header or the tables: an error, never a read past the end.
  for (std::size_t size : {std::size_t{0x30}, std::size_t{64}, good.size() / 2})
    EXPECT_NE(error_of(std::span(good).first(size)), "") << size;
}

} // namespace
} // namespace gpurun::kit
