// End-to-end: what a hostile user hands bench, compare, merge, plot and the JSON readers — deep
// nesting, a 16 GiB file, numbers beyond a double, bytes that are not UTF-8, counts beyond 64
// bits — ends in a one-line usage error (exit 2) or a well-formed report, never in a crash or an
// internal error.
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

const std::string k_quick = " --backend cpu --min-samples 2 --max-samples 2 --min-time 0";

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string in_quotes(const fs::path& path) {
  return "'" + path.string() + "'";
}

/// Exit 2 with one line on stderr that names `file` and holds `what`.
void expect_usage_error(const RunResult& r, const std::string& file, const std::string& what,
                        const std::string& args) {
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  EXPECT_TRUE(r.err.starts_with("gpurun: error: ")) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << args << "\n" << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << args << "\n" << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
}

/// One case of the stream suite, as bench writes it with --shard 0/18446744073709551615: a
/// shard's result that compare, plot, merge and --balance-from all read.
class HostileInput : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    s_dir = new fs::path(temp_dir());
    const auto r = run_gpurun("bench kernels/suites/stream.json -a 'N=[1024]' --filter "
                              "'^copy_float' --shard 0/18446744073709551615 --json " +
                              in_quotes(*s_dir / "result.json") + k_quick);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    s_result = new std::string(slurp(*s_dir / "result.json"));
  }
  static void TearDownTestSuite() {
    delete s_dir;
    delete s_result;
  }

  /// The result with `replacement` in place of the first `target`.
  static fs::path result_with(const std::string& name, const std::string& target,
                              const std::string& replacement) {
    std::string text = *s_result;
    const auto at = text.find(target);
    EXPECT_NE(at, std::string::npos) << target;
    text.replace(at, target.size(), replacement);
    write(*s_dir / name, text);
    return *s_dir / name;
  }

  /// Every command that reads a bench result, given `file`.
  static std::vector<std::string> readers_of(const fs::path& file) {
    return {"compare " + in_quotes(file) + " " + in_quotes(*s_dir / "result.json"),
            "merge " + in_quotes(*s_dir / "merged.json") + " " + in_quotes(file),
            "plot " + in_quotes(file) + " -o " + in_quotes(*s_dir / "plot.svg"),
            "bench kernels/suites/stream.json --list --shard 0/2 --balance-from " +
                in_quotes(file)};
  }

  static fs::path* s_dir;
  static std::string* s_result;
};

fs::path* HostileInput::s_dir = nullptr;
std::string* HostileInput::s_result = nullptr;

// Nested 200 000 levels deep, a document overflowed the stack (SIGSEGV) in bench, merge and plot.
TEST_F(HostileInput, DeepNestingIsAUsageErrorInEveryReader) {
  const std::string deep = std::string(200'000, '[') + std::string(200'000, ']');
  const fs::path result = result_with("deep.json", "\"N\": \"1024\"", "\"N\": " + deep);
  for (const auto& args : readers_of(result))
    expect_usage_error(run_gpurun(args), "deep.json",
                       "invalid JSON: nested deeper than 512 levels at line ", args);
  write(*s_dir / "suite.json",
        R"({"cases": [{"name": "a", "source": "x.cu", "grid": )" + deep + "}]}");
  write(*s_dir / "spec.json", R"({"source": "x.cu", "args": )" + deep + "}");
  for (const std::string args :
       {"bench suite.json --list", "bench spec.json --list", "run spec.json"})
    expect_usage_error(run_gpurun(args, *s_dir), args.substr(args.find(' ') + 1, 9),
                       "invalid JSON: nested deeper than 512 levels at line 1", args);
}

// Read whole, a 16 GiB file ended in std::bad_alloc (exit 4) where memory was limited, and took
// 16 GiB and half a minute where it was not. The file is sparse: nothing of it is on disk.
TEST_F(HostileInput, A16GiBFileIsRefusedByItsSize) {
  const fs::path huge = *s_dir / "huge.json";
  const fs::path kernel = *s_dir / "huge.cu";
  for (const auto& path : {huge, kernel}) {
    write(path, "");
    fs::resize_file(path, std::uint64_t{16} << 30);
  }
  auto readers = readers_of(huge);
  readers.push_back("bench " + in_quotes(huge) + " --list");
  readers.push_back("run " + in_quotes(kernel) + " -k k");
  for (const auto& args : readers)
    expect_usage_error(run_gpurun(args), "huge.",
                       "file: is 16.0 GiB, more than the 4.00 GiB gpurun reads", args);
  fs::remove(huge);
  fs::remove(kernel);
}

TEST_F(HostileInput, NumbersBeyondADoubleAreUsageErrors) {
  const fs::path result =
      result_with("overflow.json", "\"real_time\": ", "\"big\": 1e400, \"real_time\": ");
  auto readers = readers_of(result);
  write(*s_dir / "overflow_suite.json", R"({"cases": [{"name": "a", "grid": -1e400}]})");
  readers.push_back("bench " + in_quotes(*s_dir / "overflow_suite.json") + " --list");
  for (const auto& args : readers)
    expect_usage_error(run_gpurun(args), "overflow", "invalid JSON: number overflow parsing '",
                       args);
}

// nlohmann's parser stops at a NUL byte: what followed it was silently ignored.
TEST_F(HostileInput, ANulByteAndWhatFollowsItAreInvalidJson) {
  write(*s_dir / "nul.json", *s_result + std::string("\0trailing bytes", 15));
  for (const auto& args : readers_of(*s_dir / "nul.json"))
    expect_usage_error(run_gpurun(args), "nul.json", "invalid JSON: a NUL byte at line", args);
}

TEST_F(HostileInput, ASuiteThatIsNoObjectIsAUsageError) {
  for (const std::string text : {"[]", "null", "1", "\"cases\""}) {
    write(*s_dir / "not_a_suite.json", text);
    expect_usage_error(run_gpurun("bench " + in_quotes(*s_dir / "not_a_suite.json") + " --list"),
                       "not_a_suite.json",
                       "neither a suite (a JSON object with \"cases\") nor a run spec", text);
  }
}

// merge refused bench's own output: N = 2^64 - 1 was read as a signed -1.
TEST_F(HostileInput, MergeTakesTheLargestShardCountBenchWrites) {
  const std::string name = std::string(250, 'm') + ".json"; // the longest name a file can have
  const auto r =
      run_gpurun("merge " + in_quotes(*s_dir / name) + " " + in_quotes(*s_dir / "result.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("merged 1 of 18446744073709551615 shards"), std::string::npos) << r.out;
  const auto merged = nlohmann::json::parse(slurp(*s_dir / name));
  EXPECT_EQ(merged["context"]["gpurun"]["merged"]["shard_count"], 18446744073709551615u);
}

// CLI11 reads an unsigned option with strtoull, which saturates 2^64 and wraps -1 silently.
TEST(HostileInputE2E, CountsBeyond64BitsAreUsageErrors) {
  for (const std::string args : {"bench kernels/suites/stream.json --list --max-samples "
                                 "18446744073709551616",
                                 "bench kernels/suites/stream.json --list --min-samples -1",
                                 "threads --block 32 --limit 18446744073709551616"}) {
    const auto r = run_gpurun(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    const std::string value = args.substr(args.rfind(' ') + 1);
    EXPECT_NE(r.err.find("'" + value + "' "), std::string::npos) << args << "\n" << r.err;
  }
  const auto r =
      run_gpurun("bench kernels/suites/stream.json --list --max-samples 1" + std::string(20, '0'));
  EXPECT_NE(r.err.find("is too large (at most 9223372036854775807)"), std::string::npos) << r.err;
}

// nlohmann's dump() threw type_error 316 (an internal error, exit 4) on a byte that is not UTF-8.
TEST(HostileInputE2E, BytesThatAreNotUtf8InPathsPrintAsJson) {
  const auto dir = temp_dir();
  const fs::path kernel = dir / "sa\xFFxpy.cu";
  fs::copy_file(source_dir() / "kernels/examples/saxpy.cu", kernel);
  auto r = run_gpurun("list " + in_quotes(kernel) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NO_THROW((void)nlohmann::json::parse(r.out)) << r.out;
  EXPECT_NE(r.out.find("sa\xEF\xBF\xBDxpy.cu"), std::string::npos) << r.out;

  fs::create_directories(dir / "cache\xFE");
  r = run_shell("GPURUN_CACHE_DIR=" + in_quotes(dir / "cache\xFE") + " " + in_quotes(gpurun_bin()) +
                " cache info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["dir"], (dir / "cache\xEF\xBF\xBD").string());
}

// An axis value with any bytes: the JUnit report stays well-formed XML in UTF-8.
TEST(HostileInputE2E, JunitStaysWellFormedWithAnyByteInAnAxisValue) {
  const auto dir = temp_dir();
  const auto r = run_gpurun("bench " + in_quotes(dir / "absent.cu") + " -k k -g 1 -b 1 " +
                            "-a 'X=[a\xFFz,q\x01r,s\xED\xA0\x80t]' --junit " +
                            in_quotes(dir / "j.xml") + k_quick);
  EXPECT_EQ(r.exit_code, 1) << r.err; // every case skipped: the source is not there
  const std::string xml = slurp(dir / "j.xml");
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_NE(xml.find("X:a" + fffd + "z"), std::string::npos) << xml;
  EXPECT_NE(xml.find("X:q" + fffd + "r"), std::string::npos) << xml;
  EXPECT_NE(xml.find("X:s" + fffd + fffd + fffd + "t"), std::string::npos) << xml;
  for (const char bad : {'\xFF', '\x01', '\xED'})
    EXPECT_EQ(xml.find(bad), std::string::npos) << xml;
}

} // namespace
} // namespace gpurun::test
