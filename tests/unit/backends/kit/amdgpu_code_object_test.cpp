#include "backends/kit/amdgpu_code_object.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace gpurun::kit {
namespace {

// Code objects hipRTC (ROCm 5.2.3) made for gfx90a from tests/data/hip/*.hip; the expected values
// were read from their NT_AMDGPU_METADATA notes with an independent MessagePack decoder.
std::vector<std::byte> data_file(const std::string& name) {
  std::ifstream in(test::source_dir() / "tests/data/hip" / name, std::ios::binary);
  std::vector<char> chars{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  EXPECT_FALSE(bytes.empty()) << name;
  return bytes;
}

std::string error_of(std::span<const std::byte> bytes) {
  try {
    (void)read_amdgpu_code_object(bytes);
  } catch (const CodeObjectError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(AmdgpuCodeObject, ScalarAddArgumentsAndResources) {
  const auto bytes = data_file("scalar_add.gfx90a.co");
  ASSERT_TRUE(looks_like_code_object(bytes));
  const auto code = read_amdgpu_code_object(bytes);
  EXPECT_EQ(code.target, "amdgcn-amd-amdhsa--gfx90a");
  EXPECT_EQ(code.processor(), "gfx90a");
  ASSERT_EQ(code.kernels.size(), 1u);
  const auto& k = code.kernels[0];
  EXPECT_EQ(k.name, "scalar_add");
  EXPECT_EQ(k.symbol, "scalar_add.kd");
  EXPECT_EQ(k.vgprs, 3);
  EXPECT_EQ(k.sgprs, 11);
  EXPECT_EQ(k.agprs, 0);
  EXPECT_EQ(k.lds_bytes, 0u);
  EXPECT_EQ(k.scratch_bytes, 0u);
  EXPECT_EQ(k.kernarg_bytes, 16u);
  EXPECT_EQ(k.wavefront_size, 64);
  EXPECT_EQ(k.max_flat_workgroup_size, 1024);
  // float* vector, int size, float scalar
  ASSERT_EQ(k.args.size(), 3u);
  EXPECT_EQ(k.args[0].value_kind, "global_buffer");
  EXPECT_EQ(k.args[0].offset, 0u);
  EXPECT_EQ(k.args[0].size, 8u);
  EXPECT_EQ(k.args[1].value_kind, "by_value");
  EXPECT_EQ(k.args[1].offset, 8u);
  EXPECT_EQ(k.args[1].size, 4u);
  EXPECT_EQ(k.args[2].offset, 12u);
  EXPECT_EQ(k.args[2].size, 4u);
  EXPECT_FALSE(k.args[2].hidden());
}

TEST(AmdgpuCodeObject, LdsScratchAndHiddenArguments) {
  const auto code = read_amdgpu_code_object(data_file("resources.gfx90a.co"));
  ASSERT_EQ(code.kernels.size(), 1u);
  const auto& k = code.kernels[0];
  EXPECT_EQ(k.name, "uses_resources");
  EXPECT_EQ(k.lds_bytes, 256u); // __shared__ float tile[64]
  EXPECT_EQ(k.scratch_bytes, 336u);
  EXPECT_EQ(k.vgprs, 50);
  EXPECT_EQ(k.sgprs, 58);
  EXPECT_EQ(k.kernarg_bytes, 72u);
  ASSERT_EQ(k.args.size(), 9u);
  int hidden = 0;
  for (const auto& a : k.args)
    hidden += a.hidden() ? 1 : 0;
  EXPECT_EQ(hidden, 7); // printf's hostcall buffer among them
  EXPECT_EQ(k.args[5].value_kind, "hidden_hostcall_buffer");
  EXPECT_EQ(k.args[5].offset, 40u);
}

TEST(AmdgpuCodeObject, OffloadBundleIsUnwrapped) {
  const auto elf = data_file("scalar_add.gfx90a.co");
  // A clang offload bundle: magic, entry count, then (offset, size, triple size, triple) per
  // entry; a host entry of size 0 first, as hipcc writes it.
  const std::string magic = "__CLANG_OFFLOAD_BUNDLE__";
  const std::string host = "host-x86_64-unknown-linux";
  const std::string device = "hipv4-amdgcn-amd-amdhsa--gfx90a";
  std::vector<std::byte> bundle(magic.size() + 8 + 2 * 24 + host.size() + device.size());
  std::size_t at = 0;
  auto put = [&](const void* p, std::size_t n) {
    std::memcpy(bundle.data() + at, p, n);
    at += n;
  };
  auto put64 = [&](std::uint64_t v) { put(&v, 8); };
  put(magic.data(), magic.size());
  put64(2);
  put64(bundle.size());
  put64(0);
  put64(host.size());
  put(host.data(), host.size());
  put64(bundle.size());
  put64(elf.size());
  put64(device.size());
  put(device.data(), device.size());
  bundle.insert(bundle.end(), elf.begin(), elf.end());
  const auto code = read_amdgpu_code_object(bundle);
  ASSERT_EQ(code.kernels.size(), 1u);
  EXPECT_EQ(code.kernels[0].name, "scalar_add");
}

TEST(AmdgpuCodeObject, MalformedInputNamesWhatIsWrong) {
  const auto elf = data_file("scalar_add.gfx90a.co");
  EXPECT_NE(error_of(std::as_bytes(std::span("not an elf", 10))).find("not an ELF"),
            std::string::npos);
  // Cut short inside the section headers (which sit at the end of the file).
  const std::span<const std::byte> cut(elf.data(), elf.size() - 40);
  EXPECT_NE(error_of(cut).find("past the end"), std::string::npos) << error_of(cut);
  // Another machine: an x86-64 ELF header.
  auto other = elf;
  other[18] = std::byte{62};
  other[19] = std::byte{0};
  EXPECT_NE(error_of(other).find("not an AMD GPU code object"), std::string::npos);
  // A section offset far past the end must not be followed.
  auto wild = elf;
  std::uint64_t shoff = 0;
  std::memcpy(&shoff, wild.data() + 0x28, 8);
  shoff = ~std::uint64_t{0} - 8;
  std::memcpy(wild.data() + 0x28, &shoff, 8);
  EXPECT_NE(error_of(wild).find("past the end"), std::string::npos) << error_of(wild);
}

TEST(AmdgpuCodeObject, DeeplyNestedMetadataIsRefusedNotRecursedInto) {
  // The metadata note's MessagePack replaced by one-element arrays (0x91) nested as deep as the
  // note is long, closed by a nil: a recursive parse goes one level down per byte.
  auto elf = data_file("scalar_add.gfx90a.co");
  const std::string note_start = "\x83\xae"
                                 "amdhsa.kernels"; // {"amdhsa.kernels": …
  std::string text(reinterpret_cast<const char*>(elf.data()), elf.size());
  const auto at = text.find(note_start);
  ASSERT_NE(at, std::string::npos);
  std::uint32_t descsz = 0;
  // namesz, descsz, type, "AMDGPU\0" padded to 8 bytes, then the description
  std::memcpy(&descsz, elf.data() + at - 16, 4);
  ASSERT_GT(descsz, 100u);
  for (std::size_t i = 0; i < descsz; ++i)
    elf[at + i] = i + 1 < descsz ? std::byte{0x91} : std::byte{0xc0};
  EXPECT_NE(error_of(elf).find("nests deeper than"), std::string::npos) << error_of(elf);
}

TEST(AmdgpuCodeObject, ProcessorFromTargetNames) {
  EXPECT_EQ(amdgpu_processor("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"), "gfx90a");
  EXPECT_EQ(amdgpu_processor("gfx942:xnack-"), "gfx942");
  EXPECT_EQ(amdgpu_processor("gfx1100"), "gfx1100");
}

} // namespace
} // namespace gpurun::kit
