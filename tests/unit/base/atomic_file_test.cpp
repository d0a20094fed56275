#include "base/atomic_file.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/signal_cleanup.hpp"
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

TEST(AtomicFile, AFolderIsRefusedAndKept) {
  const auto dir = test::temp_dir() / "rename";
  std::filesystem::create_directories(dir / "target_is_a_dir" / "inside");
  EXPECT_THROW(write_file_atomic(dir / "target_is_a_dir", std::string_view("x")), Error);
  EXPECT_TRUE(std::filesystem::is_directory(dir / "target_is_a_dir"));
  EXPECT_EQ(entries(dir), 1u); // no temporary file left
}

/// The message of the usage Error that writing `text` to `path` throws ("" when none).
std::string write_error(const std::filesystem::path& path, std::string_view text) {
  try {
    write_file_atomic(path, text);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  return "";
}

mode_t file_type(const std::filesystem::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & S_IFMT : 0;
}

TEST(AtomicFile, AFifoIsWrittenThroughNotReplaced) {
  const auto dir = test::temp_dir();
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = slurp(fifo); });
  write_file_atomic(fifo, std::string_view("through the pipe"));
  reader.join();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_EQ(file_type(fifo), static_cast<mode_t>(S_IFIFO));
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, DevicesAreWrittenThroughAndAFullOneIsAnError) {
  // Device nodes of their own (as /dev/null and /dev/full), so that the test never puts the
  // system's at risk; making them needs root.
  const auto dir = test::temp_dir();
  const auto null = dir / "null";
  const auto full = dir / "full";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "cannot make device nodes (not root)";
  EXPECT_EQ(write_error(null, "gone"), "");
  EXPECT_EQ(file_type(null), static_cast<mode_t>(S_IFCHR));
  EXPECT_EQ(write_error(full, "no room"),
            full.string() + ": cannot write the file: write failed (No space left on device)");
  EXPECT_EQ(file_type(full), static_cast<mode_t>(S_IFCHR));
  EXPECT_EQ(entries(dir), 2u);
}

TEST(AtomicFile, ASymbolicLinkStaysAndTheFileItNamesIsReplaced) {
  const auto dir = test::temp_dir();
  std::filesystem::create_directory(dir / "data");
  std::ofstream(dir / "data" / "real.json") << "old";
  std::filesystem::create_symlink("data/real.json", dir / "link.json");
  write_file_atomic(dir / "link.json", std::string_view("new"));
  EXPECT_EQ(file_type(dir / "link.json"), static_cast<mode_t>(S_IFLNK));
  EXPECT_EQ(slurp(dir / "data" / "real.json"), "new");
  EXPECT_EQ(entries(dir / "data"), 1u);
}

class AtomicFileDeathTest : public ::testing::Test {
protected:
  // Forked without exec, so that the child writes into the folder the test then looks at.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "fast"); }
};

TEST_F(AtomicFileDeathTest, AFailedWriteRemovesTheTemporaryFile) {
  const auto dir = test::temp_dir();
  // A file size limit of 4 bytes makes the write fail (EFBIG) after the temporary file exists.
  EXPECT_EXIT(
      {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{};
        limit.rlim_cur = limit.rlim_max = 4;
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const std::string message = write_error(dir / "out.json", "longer than four bytes");
        const bool named = message == (dir / "out.json").string() +
                                          ": cannot write the file: write failed (File too large)";
        std::_Exit(named && entries(dir) == 0 ? 3 : 4); // no atexit: the temp root stays
      },
      ::testing::ExitedWithCode(3), "");
  EXPECT_EQ(entries(dir), 0u);
}

TEST_F(AtomicFileDeathTest, ASignalDuringTheWriteRemovesTheTemporaryFile) {
  const auto dir = test::temp_dir();
  EXPECT_EXIT(
      {
        install_signal_cleanup();
        // SIGTERM as soon as the temporary file appears, while its 128 MiB are being written.
        std::thread killer([&dir] {
          while (!std::filesystem::exists(dir / "out.json")) // too late: the test fails
            for (const auto& entry : std::filesystem::directory_iterator(dir))
              if (entry.path().filename().string().starts_with(".out.json.tmp-")) {
                ::kill(::getpid(), SIGTERM);
                return;
              }
        });
        write_file_atomic(dir / "out.json", std::string(128 << 20, 'x'));
        killer.join();
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_EQ(entries(dir), 0u) << "neither the temporary file nor a finished out.json";
}

} // namespace
} // namespace gpurun
