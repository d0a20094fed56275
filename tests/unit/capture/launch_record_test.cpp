#include "capture/launch_record.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>

#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::capture {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

std::vector<std::byte> filled(std::size_t n, int value) {
  return std::vector<std::byte>(n, static_cast<std::byte>(value));
}

// A launch of saxpy(float a, const float* x, float* y_plus_16) with x and y in two allocations.
LaunchRecord saxpy_launch() {
  LaunchRecord r;
  r.kernel = "_Z5saxpyfPKfPf";
  r.ordinal = 3;
  r.grid[0] = 8;
  r.block[0] = 128;
  r.slots = {{0, 4}, {8, 8}, {16, 8}};
  r.params.resize(24);
  r.image_kind = kit::ImageKind::ptx;
  r.image = bytes_of(".version 8.0\n");
  const Allocation x{0x7000, 64, MemoryKind::device};
  const Allocation y{0x9000, 128, MemoryKind::pool};
  r.pointers = {{1, 0, x, 0}, {2, 0, y, 16}};
  r.memory = {{{x, 0, 64}, filled(64, 1), filled(64, 2)},
              {{y, 0, 100}, filled(100, 3), filled(100, 4)}};
  r.incomplete = {"a1: 100 of its 128 bytes saved (max-bytes)"};
  r.device = "NVIDIA H200";
  r.arch = "sm_90";
  return r;
}

TEST(LaunchRecord, WritesTheFolderAndTheRecordNamesEveryFile) {
  const auto dir = test::temp_dir() / "cap";
  const LaunchRecord r = saxpy_launch();
  write_capture(dir, r);
  const auto doc = nlohmann::json::parse(test::slurp(dir / "launch.json"));
  EXPECT_EQ(doc["kernel"], "_Z5saxpyfPKfPf");
  EXPECT_EQ(doc["launch"], 3);
  EXPECT_EQ(doc["grid"], nlohmann::json({8, 1, 1}));
  EXPECT_EQ(doc["module"], "module.ptx");
  EXPECT_EQ(test::slurp(dir / "module.ptx"), ".version 8.0\n");
  EXPECT_EQ(test::slurp(dir / "params.bin").size(), 24u);
  ASSERT_EQ(doc["param_slots"].size(), 3u);
  EXPECT_EQ(doc["param_slots"][2]["offset"], 16);
  ASSERT_EQ(doc["pointers"].size(), 2u);
  EXPECT_EQ(doc["pointers"][1]["memory"], "a1");
  EXPECT_EQ(doc["pointers"][1]["offset"], 16);
  ASSERT_EQ(doc["memory"].size(), 2u);
  EXPECT_EQ(doc["memory"][1]["kind"], "pool");
  EXPECT_EQ(doc["memory"][1]["saved"], 100);
  // Saved as .npy of the pointee's type (float* y) where the window's size allows it.
  EXPECT_EQ(doc["memory"][1]["dtype"], "f32");
  const HostBuffer y_after = read_npy(dir / doc["memory"][1]["after"].get<std::string>());
  EXPECT_EQ(y_after.dtype(), DType::f32);
  ASSERT_EQ(y_after.size_bytes(), 100u);
  EXPECT_EQ(y_after.bytes()[99], std::byte{4});
  const HostBuffer x_before = read_npy(dir / doc["memory"][0]["before"].get<std::string>());
  EXPECT_EQ(x_before.bytes()[0], std::byte{1});
  EXPECT_TRUE(std::filesystem::exists(dir / "capture.json"));
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["incomplete"].size(), 1u);
  EXPECT_EQ(memory_index(r, r.pointers[1]), 1u);
}

TEST(LaunchRecord, ImageFilesAreNamedByKind) {
  EXPECT_EQ(image_file_name(kit::ImageKind::fatbin), "module.fatbin");
  EXPECT_EQ(image_file_name(kit::ImageKind::cubin), "module.cubin");
  EXPECT_EQ(image_file_name(kit::ImageKind::unknown), "module.bin");
}

} // namespace
} // namespace gpurun::capture
