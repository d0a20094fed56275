#include "base/file_identity.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

namespace fs = std::filesystem;

TEST(FileIdentity, OneFileHowEverItIsSpelled) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "results.json") << "{}";
  fs::create_directory(dir / "sub");
  fs::create_symlink(dir / "results.json", dir / "link.json");
  fs::create_hard_link(dir / "results.json", dir / "hard.json");
  const fs::path file = dir / "results.json";
  EXPECT_TRUE(same_regular_file(file, dir / "." / "results.json"));
  EXPECT_TRUE(same_regular_file(file, dir / "sub" / ".." / "results.json"));
  EXPECT_TRUE(same_regular_file(file, dir / "link.json"));
  EXPECT_TRUE(same_regular_file(file, dir / "hard.json"));
  std::ofstream(dir / "other.json") << "{}";
  EXPECT_FALSE(same_regular_file(file, dir / "other.json"));
  EXPECT_FALSE(same_regular_file(dir / "new.json", dir / "new.json")) << "not there";
  EXPECT_FALSE(same_regular_file("/dev/zero", "/dev/zero")) << "not a regular file";
}

TEST(FileIdentity, AnOutputThatIsAnInputIsAUsageErrorNamingBoth) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "base.json") << "{}";
  std::ofstream(dir / "new.json") << "{}";
  const NamedInput inputs[] = {{dir / "base.json", "the baseline file"},
                               {dir / "new.json", "the new results file"}};
  const fs::path spelled = dir / "." / "new.json";
  try {
    check_output_is_no_input("--md", spelled, inputs);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()),
              "--md " + spelled.string() + ": the same file as the new results file (" +
                  (dir / "new.json").string() + "); an output must not overwrite an input");
  }
  EXPECT_NO_THROW(check_output_is_no_input("--md", dir / "table.md", inputs));
  EXPECT_NO_THROW(check_output_is_no_input("--md", "-", inputs));
  EXPECT_NO_THROW(check_output_is_no_input("--md", "", inputs));
}

} // namespace
} // namespace gpurun
