#include "base/signal_cleanup.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& path) {
  std::ofstream(path) << "x";
}

// Death tests: each signal ends a child process, forked without exec so that it works in the
// folder the test then looks at.
class SignalCleanupDeathTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "fast"); }
};

TEST_P(SignalCleanupDeathTest, RegisteredFilesAndFoldersGoAndTheSignalStillEndsTheProcess) {
  const int signal = GetParam();
  const auto dir = test::temp_dir();
  const auto folder = dir / "gpurun-plot-x";
  const auto kept = dir / "kept.txt";
  touch(kept);
  EXPECT_EXIT(
      {
        install_signal_cleanup();
        fs::create_directory(folder);
        touch(dir / "a.tmp");
        touch(folder / "plot.gp");
        const RemoveOnSignal a(dir / "a.tmp");
        // The folder registered before its file: files go first all the same.
        const RemoveOnSignal f(folder, RemoveOnSignal::Kind::folder);
        const RemoveOnSignal g(folder / "plot.gp");
        {
          touch(dir / "released.tmp");
          const RemoveOnSignal released(dir / "released.tmp");
        }
        std::raise(signal);
      },
      ::testing::KilledBySignal(signal), "");
  EXPECT_FALSE(fs::exists(dir / "a.tmp"));
  EXPECT_FALSE(fs::exists(folder));
  EXPECT_TRUE(fs::exists(dir / "released.tmp")) << "no longer registered when the signal came";
  EXPECT_TRUE(fs::exists(kept));
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalCleanupDeathTest,
                         ::testing::Values(SIGINT, SIGTERM, SIGHUP));

TEST(SignalCleanupDeathTest, ASignalIgnoredAtTheStartStaysIgnored) {
  GTEST_FLAG_SET(death_test_style, "fast");
  const auto dir = test::temp_dir();
  EXPECT_EXIT(
      {
        std::signal(SIGHUP, SIG_IGN); // as nohup starts a program
        install_signal_cleanup();
        touch(dir / "a.tmp");
        const RemoveOnSignal a(dir / "a.tmp");
        std::raise(SIGHUP);
        std::_Exit(7); // no atexit handlers: the test's temporary folder stays
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_TRUE(fs::exists(dir / "a.tmp"));
}

TEST(SignalCleanup, RegistersUpToItsCapacityAndFreesSlots) {
  const auto dir = test::temp_dir();
  std::vector<std::optional<RemoveOnSignal>> guards(RemoveOnSignal::k_max_paths + 1);
  for (std::size_t i = 0; i < RemoveOnSignal::k_max_paths; ++i) {
    guards[i].emplace(dir / std::to_string(i));
    EXPECT_TRUE(guards[i]->registered());
  }
  guards.back().emplace(dir / "one too many");
  EXPECT_FALSE(guards.back()->registered());
  guards.front().reset();
  guards.back().emplace(dir / "now there is room");
  EXPECT_TRUE(guards.back()->registered());
  EXPECT_FALSE(RemoveOnSignal(fs::path(std::string(5000, 'x'))).registered())
      << "longer than PATH_MAX";
}

} // namespace
} // namespace gpurun
