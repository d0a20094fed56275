#include "base/atomic_file.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <sys/stat.h>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

using test::slurp;

std::size_t entries(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

TEST(AtomicFile, WritesAndReplacesWithoutLeavingTemporaries) {
  const auto dir = test::temp_dir() / "atomic";
  std::filesystem::create_directories(dir);
  write_file_atomic(dir / "a.txt", std::string_view("first version"));
  EXPECT_EQ(slurp(dir / "a.txt"), "first version");
  write_file_atomic(dir / "a.txt", std::string_view("2nd"));
  EXPECT_EQ(slurp(dir / "a.txt"), "2nd");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, WritesBinaryBytesExactly) {
  const auto dir = test::temp_dir();
  const std::byte bytes[] = {std::byte{0}, std::byte{0xff}, std::byte{'\n'}, std::byte{0x80}};
  write_file_atomic(dir / "b.bin", bytes);
  EXPECT_EQ(slurp(dir / "b.bin"), std::string("\0\xff\n\x80", 4));
  write_file_atomic(dir / "empty.bin", std::span<const std::byte>());
  EXPECT_EQ(std::filesystem::file_size(dir / "empty.bin"), 0u);
}

// The temporary file's name adds 12 bytes to the target's; a name of 255 bytes is still valid.
TEST(AtomicFile, WritesANameOfTheLongestLength) {
  const auto dir = test::temp_dir() / "long";
  std::filesystem::create_directories(dir);
  const std::string name = std::string(250, 'r') + ".json";
  write_file_atomic(dir / name, std::string_view("x"));
  EXPECT_EQ(slurp(dir / name), "x");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, UsesTheUsualPermissions) {
  const auto dir = test::temp_dir();
  const mode_t old = ::umask(022);
  write_file_atomic(dir / "p.txt", std::string_view("x"));
  ::umask(old);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "p.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u); // not mkstemp's 0600
}

TEST(AtomicFile, MissingDirectoryIsAUsageErrorNamingThePath) {
  const auto path = test::temp_dir() / "no" / "such" / "dir" / "f.npy";
  try {
    write_file_atomic(path, std::string_view("x"));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find(path.string() + ": cannot write the file"),
              std::string::npos);
  }
}

TEST(AtomicFile, FailedRenameKeepsTheOldContentAndCleansUp) {
  const auto dir = test::temp_dir() / "rename";
  std::filesystem::create_directories(dir / "target_is_a_dir" / "inside");
  EXPECT_THROW(write_file_atomic(dir / "target_is_a_dir", std::string_view("x")), Error);
  EXPECT_TRUE(std::filesystem::is_directory(dir / "target_is_a_dir"));
  EXPECT_EQ(entries(dir), 1u); // the temporary file was removed
}

} // namespace
} // namespace gpurun
