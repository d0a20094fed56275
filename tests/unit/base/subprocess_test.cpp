#include "base/subprocess.hpp"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <string>

namespace gpurun {
namespace {

TEST(Subprocess, CapturesStdoutAndStderrAndTheExitCode) {
  const std::array<std::string, 3> argv{"sh", "-c", "echo out; echo err >&2; exit 3"};
  const auto done = proc::run(argv);
  ASSERT_TRUE(done.started) << done.error;
  EXPECT_EQ(done.exit_code, 3);
  EXPECT_EQ(done.signal, 0);
  EXPECT_EQ(done.output, "out\nerr\n");
}

TEST(Subprocess, ArgumentsReachTheProgramUnquotedAndUnexpanded) {
  const std::array<std::string, 4> argv{"printf", "[%s][%s]", "a b", "$HOME *"};
  const auto done = proc::run(argv);
  ASSERT_TRUE(done.started) << done.error;
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.output, "[a b][$HOME *]");
}

TEST(Subprocess, StdinIsEmpty) {
  const std::array<std::string, 1> argv{"cat"};
  const auto done = proc::run(argv);
  EXPECT_EQ(done.exit_code, 0);
  EXPECT_EQ(done.output, "");
}

TEST(Subprocess, MissingProgramSaysSo) {
  const std::array<std::string, 1> argv{"gpurun-no-such-program"};
  const auto done = proc::run(argv);
  EXPECT_FALSE(done.started);
  EXPECT_NE(done.error.find("gpurun-no-such-program"), std::string::npos) << done.error;
}

TEST(Subprocess, SignalIsReported) {
  const std::array<std::string, 3> argv{"sh", "-c", "kill -9 $$"};
  const auto done = proc::run(argv);
  EXPECT_TRUE(done.started);
  EXPECT_EQ(done.exit_code, -1);
  EXPECT_EQ(done.signal, 9);
}

TEST(Subprocess, FindProgramOnPathAndByPath) {
  const auto sh = proc::find_program("sh");
  ASSERT_TRUE(sh);
  EXPECT_TRUE(sh->is_absolute() || sh->string().find('/') != std::string::npos);
  EXPECT_EQ(proc::find_program(sh->string()), sh);
  EXPECT_FALSE(proc::find_program("gpurun-no-such-program"));
  EXPECT_FALSE(proc::find_program("/"));
  EXPECT_FALSE(proc::find_program(""));
}

TEST(Subprocess, TempDirIsRemovedWithItsContents) {
  std::filesystem::path kept;
  {
    const proc::TempDir dir("gpurun-test-");
    kept = dir.path();
    ASSERT_TRUE(std::filesystem::is_directory(kept));
    EXPECT_NE(kept.filename().string().find("gpurun-test-"), std::string::npos);
    std::filesystem::create_directories(kept / "sub");
    std::ofstream(kept / "sub" / "file") << "x";
  }
  EXPECT_FALSE(std::filesystem::exists(kept));
}

} // namespace
} // namespace gpurun
