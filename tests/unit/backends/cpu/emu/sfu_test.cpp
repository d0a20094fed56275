// The special-function unit's tables: a table that is malformed is refused with its name and what
// is wrong, and loading the derived tables anew (as tools/approx/verify does) gives the same
// results as the built-in ones.
#include "backends/cpu/emu/sfu.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun::emu::sfu {
namespace {

namespace fs = std::filesystem;

fs::path copy_of_tables() {
  const fs::path dir = gpurun::test::temp_dir() / "sfu";
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(gpurun::test::source_dir() / "backends/cpu/emu/sfu"))
    fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  return dir;
}

std::string load_error(const fs::path& dir) {
  try {
    load_tables(dir);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Sfu, MalformedTablesAreRefusedByName) {
  const fs::path dir = copy_of_tables();
  const auto tanh = dir / "tanh.sfu";
  const auto size = fs::file_size(tanh);
  fs::resize_file(tanh, size - 1);
  std::string e = load_error(dir);
  EXPECT_NE(e.find("tanh.sfu"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;

  { // version 2 where tanh's version 3 belongs
    std::fstream f(tanh, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4);
    f.put(2);
  }
  e = load_error(dir);
  EXPECT_NE(e.find("version-3"), std::string::npos) << e;

  fs::copy_file(gpurun::test::source_dir() / "backends/cpu/emu/sfu/tanh.sfu", tanh,
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "lg2.sfu", std::ios::app) << 'x';
  e = load_error(dir);
  EXPECT_NE(e.find("lg2.sfu: trailing bytes"), std::string::npos) << e;
}

TEST(Sfu, LoadedTablesGiveTheBuiltInResults) {
  const std::uint32_t inputs[] = {0x3f800000u, 0x3fa34567u, 0x40e00001u, 0x3c123456u,
                                  0x3f3504f3u, 0x1f812345u, 0x3f7fffffu};
  std::uint32_t before[3][std::size(inputs)];
  for (std::size_t i = 0; i < std::size(inputs); ++i) {
    before[0][i] = tanh(inputs[i]);
    before[1][i] = lg2(inputs[i]);
    before[2][i] = sin(inputs[i]);
  }
  EXPECT_EQ(load_error(copy_of_tables()), "");
  for (std::size_t i = 0; i < std::size(inputs); ++i) {
    EXPECT_EQ(tanh(inputs[i]), before[0][i]);
    EXPECT_EQ(lg2(inputs[i]), before[1][i]);
    EXPECT_EQ(sin(inputs[i]), before[2][i]);
  }
}

} // namespace
} // namespace gpurun::emu::sfu
