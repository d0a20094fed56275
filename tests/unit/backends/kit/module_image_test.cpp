#include "backends/kit/module_image.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace gpurun::kit {
namespace {

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

std::vector<std::byte> data_file(const char* name) {
  auto bytes = bytes_of(test::slurp(test::source_dir() / "tests/data/cubin" / name));
  EXPECT_FALSE(bytes.empty()) << name;
  return bytes;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ImageError& e) {
    return e.what();
  }
  return "";
}

template <class T> void put(std::vector<std::byte>& out, std::size_t at, T value) {
  if (out.size() < at + sizeof(T))
    out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &value, sizeof(T));
}

/// A fatbin of one PTX entry for `arch`, zstd-compressed when asked.
/// `stated_size` false: the frame leaves out its content size, as a streaming compressor may.
std::vector<std::byte> fatbin_with_ptx(const std::string& ptx, unsigned arch, bool compress,
                                       bool stated_size = true) {
  std::string payload = ptx + '\0';
  std::string stored = payload;
  if (compress) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, stated_size ? 1 : 0);
    stored.resize(ZSTD_compressBound(payload.size()));
    stored.resize(
        ZSTD_compress2(cctx, stored.data(), stored.size(), payload.data(), payload.size()));
    ZSTD_freeCCtx(cctx);
  }
  const std::size_t padded = (stored.size() + 7) / 8 * 8;
  std::vector<std::byte> out;
  put<std::uint32_t>(out, 0, 0xBA55ED50);
  put<std::uint16_t>(out, 4, 1);
  put<std::uint16_t>(out, 6, 16);
  put<std::uint64_t>(out, 8, 64 + padded);
  put<std::uint16_t>(out, 16, 1); // PTX
  put<std::uint32_t>(out, 20, 64);
  put<std::uint64_t>(out, 24, padded);
  put<std::uint32_t>(out, 32, compress ? static_cast<std::uint32_t>(stored.size()) : 0);
  put<std::uint32_t>(out, 44, arch);
  put<std::uint64_t>(out, 56, compress ? 0x8011 : 0x11);
  put<std::uint64_t>(out, 72, compress ? payload.size() : 0);
  out.resize(16 + 64 + padded);
  std::memcpy(out.data() + 80, stored.data(), stored.size());
  return out;
}

TEST(ModuleImage, TellsTheKindFromTheFirstBytes) {
  EXPECT_EQ(image_kind(data_file("params.cubin")), ImageKind::cubin);
  EXPECT_EQ(image_kind(data_file("params.fatbin")), ImageKind::fatbin);
  EXPECT_EQ(image_kind(bytes_of("//\n// Generated\n.version 8.0")), ImageKind::ptx);
  EXPECT_EQ(image_kind(bytes_of(".version 8.0\n.target sm_90")), ImageKind::ptx);
  EXPECT_EQ(image_kind(bytes_of("\xb1\x43\x62\x46\x01\x00\x00\x00")), ImageKind::fatbin_wrapper);
  EXPECT_EQ(image_kind(bytes_of("hello")), ImageKind::unknown);
  EXPECT_EQ(image_kind(bytes_of(std::string("//\x01 binary", 11))), ImageKind::unknown);
  EXPECT_EQ(image_kind({}), ImageKind::unknown);
}

// The size comes from the image's own headers: a copy taken through a pointer alone ends where
// the image does, however far the readable memory beyond it reaches.
TEST(ModuleImage, FindsTheEndOfEachKindInItsHeaders) {
  for (const char* name : {"params.cubin", "params.fatbin", "nvrtc_matmul.cubin"}) {
    auto image = data_file(name);
    const std::size_t size = image.size();
    image.resize(size + 4096, std::byte{0x5a});
    EXPECT_EQ(image_size(image), size) << name;
  }
  EXPECT_EQ(image_size(bytes_of(std::string(".version 8.0\n\0garbage", 22))), 13u);
  EXPECT_NE(error_of([] { (void)image_size(bytes_of(".version 8.0")); }).find("without its"),
            std::string::npos);
  auto cut = data_file("params.cubin");
  cut.resize(cut.size() / 2);
  EXPECT_NE(error_of([&] { (void)image_size(cut); }).find("past"), std::string::npos);
  auto fat = data_file("params.fatbin");
  fat.resize(100);
  EXPECT_NE(error_of([&] { (void)image_size(fat); }).find("past the 100 there are"),
            std::string::npos);
  EXPECT_EQ(error_of([] { (void)image_size(bytes_of("what")); }),
            "not a PTX, cubin or fatbin image");
}

// nvcc 13's fatbin: an sm_90 ELF and compute_80/compute_90 PTX, the PTX zstd-compressed.
TEST(ModuleImage, ListsAFatbinsEntriesAndDecompressesItsPtx) {
  const auto image = data_file("params.fatbin");
  const auto entries = fatbin_entries(image);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].kind, FatbinEntry::Kind::elf);
  EXPECT_EQ(entries[1].arch, 90u);
  EXPECT_FALSE(entries[1].compressed);
  const auto elf = fatbin_payload(entries[1]);
  EXPECT_EQ(image_kind(elf), ImageKind::cubin);
  EXPECT_EQ(entries[0].kind, FatbinEntry::Kind::ptx);
  EXPECT_TRUE(entries[0].compressed);
  const auto ptx = fatbin_ptx(image, 90);
  ASSERT_TRUE(ptx.has_value());
  EXPECT_NE(ptx->find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx->find(".entry"), std::string::npos);
  EXPECT_EQ(ptx->back(), '\n') << "no NUL or padding kept";
  EXPECT_NE(fatbin_ptx(image, 86)->find(".target sm_80"), std::string::npos);
  EXPECT_NE(fatbin_ptx(image, 70)->find(".target sm_80"), std::string::npos) << "the lowest";
  EXPECT_NE(fatbin_ptx(image)->find(".target sm_90"), std::string::npos) << "the highest";
}

TEST(ModuleImage, ReadsPtxStoredPlainOrCompressed) {
  const std::string ptx = ".version 8.0\n.target sm_75\n.address_size 64\n";
  for (const bool compress : {false, true}) {
    const auto image = fatbin_with_ptx(ptx, 75, compress);
    EXPECT_EQ(image_size(image), image.size());
    ASSERT_EQ(fatbin_entries(image).size(), 1u);
    EXPECT_EQ(fatbin_entries(image)[0].compressed, compress);
    EXPECT_EQ(fatbin_ptx(image, 90), ptx);
  }
}

TEST(ModuleImage, DamagedFatbinsAreErrorsNotCrashes) {
  auto image = fatbin_with_ptx(".version 8.0\n", 75, true);
  auto bad = image;
  put<std::uint64_t>(bad, 72, 1000); // a wrong uncompressed size
  EXPECT_NE(error_of([&] { (void)fatbin_ptx(bad); }).find("does not decompress"),
            std::string::npos);
  bad = image;
  put<std::uint64_t>(bad, 24, 1 << 20); // a payload past the end
  EXPECT_NE(error_of([&] { (void)fatbin_entries(bad); }).find("past the end"), std::string::npos);
  bad = image;
  std::memset(bad.data() + 80, 0, 4); // no zstd frame
  EXPECT_NE(error_of([&] { (void)fatbin_ptx(bad); }).find("other than zstd"), std::string::npos);
  bad = image;
  put<std::uint32_t>(bad, 20, 8); // an entry header too short
  EXPECT_NE(error_of([&] { (void)fatbin_entries(bad); }).find("a header of 8 bytes"),
            std::string::npos);
}

// A size claimed in the entry's header is checked against the frame's own before anything is
// allocated, and a frame that does not state its size is read only as far as it really expands.
TEST(ModuleImage, AClaimedSizeIsNeverTakenOnTrust) {
  const std::string ptx = ".version 8.0\n.target sm_75\n";
  for (const bool stated : {true, false}) {
    const auto image = fatbin_with_ptx(ptx, 75, true, stated);
    EXPECT_EQ(fatbin_ptx(image).value_or(""), ptx) << stated;
    auto huge = image;
    put<std::uint64_t>(huge, 72, std::uint64_t{3} << 30);
    const std::string error = error_of([&] { (void)fatbin_ptx(huge); });
    const std::string holds = fmt::format("{} {}", stated ? "its frame holds" : "it holds",
                                          ptx.size() + 1);
    EXPECT_NE(error.find(holds), std::string::npos)
        << error;
  }
}

} // namespace
} // namespace gpurun::kit
