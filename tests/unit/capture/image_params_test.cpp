#include "capture/image_params.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace gpurun::capture {
namespace {

using Layout = std::vector<std::pair<std::size_t, std::size_t>>;

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

std::vector<std::byte> data_file(const char* name) {
  const auto bytes = bytes_of(test::slurp(test::source_dir() / "tests/data/cubin" / name));
  EXPECT_FALSE(bytes.empty()) << name;
  return bytes;
}

Layout layout(const ParamLayouts& layouts, const std::string& kernel) {
  Layout out;
  const auto it = layouts.find(kernel);
  EXPECT_NE(it, layouts.end()) << kernel;
  if (it != layouts.end())
    for (const ParamSlot& s : it->second)
      out.emplace_back(s.offset, s.size);
  return out;
}

std::string error_of(const std::vector<std::byte>& image, kit::ImageKind kind, unsigned arch) {
  try {
    (void)image_param_layouts(image, kind, arch);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// A PTX image as a program hands it to the driver: the text and the NUL that ends it.
TEST(ImageParams, PtxEntriesWithTheirParameterLists) {
  const std::string ptx = ".version 8.4\n.target sm_90\n.address_size 64\n"
                          ".visible .entry _Z5saxpyifPKfPf(\n"
                          "\t.param .u32 _Z5saxpyifPKfPf_param_0,\n"
                          "\t.param .f32 _Z5saxpyifPKfPf_param_1,\n"
                          "\t.param .u64 _Z5saxpyifPKfPf_param_2,\n"
                          "\t.param .u64 _Z5saxpyifPKfPf_param_3\n)\n{\n\tret;\n}\n"
                          ".visible .entry s(\n"
                          "\t.param .align 8 .b8 s_param_0[24],\n\t.param .u8 s_param_1\n)\n"
                          "{\n\tret;\n}\n"
                          ".visible .entry none()\n{\n\tret;\n}\n";
  const auto layouts =
      image_param_layouts(bytes_of(ptx + std::string(1, '\0')), kit::ImageKind::ptx, 90);
  EXPECT_EQ(layouts.size(), 3u);
  EXPECT_EQ(layout(layouts, "_Z5saxpyifPKfPf"), (Layout{{0, 4}, {4, 4}, {8, 8}, {16, 8}}));
  EXPECT_EQ(layout(layouts, "s"), (Layout{{0, 24}, {24, 1}}));
  EXPECT_EQ(layout(layouts, "none"), Layout{});
}

// tests/data/cubin/params.cu: k3(float*, int, double), k0(), ks(S /* char[20] */, float*, char).
const Layout k3{{0, 8}, {8, 4}, {16, 8}};
const Layout ks{{0, 20}, {24, 8}, {32, 1}};

TEST(ImageParams, ACubinsInfoSections) {
  const auto layouts = image_param_layouts(data_file("params.cubin"), kit::ImageKind::cubin, 90);
  EXPECT_EQ(layout(layouts, "k3"), k3);
  EXPECT_EQ(layout(layouts, "k0"), Layout{});
  EXPECT_EQ(layout(layouts, "ks"), ks);
}

// params.fatbin holds an sm_90 cubin and compute_80 and compute_90 PTX (compressed).
TEST(ImageParams, AFatBinarysCubinForTheDeviceElseItsPtx) {
  const auto fatbin = data_file("params.fatbin");
  for (const unsigned arch : {90u, 80u, 86u, 100u}) {
    SCOPED_TRACE(arch);
    const auto layouts = image_param_layouts(fatbin, kit::ImageKind::fatbin, arch);
    EXPECT_EQ(layout(layouts, "k3"), k3);
    EXPECT_EQ(layout(layouts, "ks"), ks);
  }
}

// Machine code alone runs on its own major version only, from its minor one up: sm_90 code says
// nothing for an sm_89 or sm_100 device.
TEST(ImageParams, AFatBinaryOfMachineCodeForAnotherDeviceHasNone) {
  const auto fatbin = data_file("sass_only.fatbin");
  EXPECT_EQ(layout(image_param_layouts(fatbin, kit::ImageKind::fatbin, 90), "ks"), ks);
  for (const unsigned arch : {89u, 100u})
    EXPECT_NE(error_of(fatbin, kit::ImageKind::fatbin, arch).find("neither machine code for sm_"),
              std::string::npos)
        << arch;
}

TEST(ImageParams, AnImageOfNoKnownKindIsAnError) {
  EXPECT_NE(error_of(bytes_of("hello"), kit::ImageKind::unknown, 90).find("unknown"),
            std::string::npos);
}

} // namespace
} // namespace gpurun::capture
