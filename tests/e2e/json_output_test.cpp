// End-to-end: under --json, stdout carries exactly one JSON document, whatever the kernel prints
// and whatever goes wrong, and the document carries the process's exit code.
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu = " --backend cpu --no-cache";

// The whole of stdout as one JSON document: parse() rejects anything before or after it.
nlohmann::json only_document(const RunResult& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::parse_error& e) {
    ADD_FAILURE() << "stdout is not one JSON document: " << e.what() << "\nstdout:\n"
                  << r.out << "\nstderr:\n"
                  << r.err;
    return nlohmann::json::object();
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

TEST(JsonOutputE2E, PrintThreadsIsOneDocumentWithEveryThreadsLine) {
  const auto r = run_gpurun("kernels/examples/print_threads.json --json" + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = only_document(r);
  EXPECT_EQ(doc["status"], "ok");
  EXPECT_EQ(doc["exit_code"], 0);
  const auto lines = lines_of(doc.at("device_output").get<std::string>());
  const std::set<std::string> unique(lines.begin(), lines.end());
  EXPECT_EQ(lines.size(), 128u);
  EXPECT_EQ(unique.size(), 128u);
  // grid 2,2 × block 4,4,2: every combination once.
  for (unsigned bx = 0; bx < 2; ++bx)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned tz = 0; tz < 2; ++tz)
        for (unsigned ty = 0; ty < 4; ++ty)
          for (unsigned tx = 0; tx < 4; ++tx)
            EXPECT_TRUE(unique.count(fmt::format(
                "block_idx: [{}, {}, 0]\tthread_idx: [{}, {}, {}]\tglobal_idx: [{}, {}, {}]", bx,
                by, tx, ty, tz, bx * 4 + tx, by * 4 + ty, tz)))
                << bx << by << tx << ty << tz;
}

TEST(JsonOutputE2E, WithoutJsonDeviceOutputFollowsTheLaunchLine) {
  const auto r = run_gpurun("kernels/examples/print_threads.json" + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto launch = r.out.find("print_threads<<<");
  const auto first_line = r.out.find("block_idx: ");
  const auto last_line = r.out.rfind("block_idx: ");
  const auto timings = r.out.find("h2d ");
  ASSERT_NE(launch, std::string::npos) << r.out;
  ASSERT_NE(first_line, std::string::npos) << r.out;
  ASSERT_NE(timings, std::string::npos) << r.out;
  EXPECT_LT(launch, first_line);
  EXPECT_LT(last_line, timings) << "device output comes before the report that follows it";
}

TEST(JsonOutputE2E, LargeDeviceOutputArrivesComplete) {
  const unsigned blocks = 32, threads = 128;
  const auto r = run_gpurun(
      fmt::format("tests/data/e2e/print_many.cu --grid {} --block {} --json", blocks, threads) +
      cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = only_document(r);
  const std::string text = doc.at("device_output").get<std::string>();
  EXPECT_GT(text.size(), 256u * 1024) << "more than a pipe holds";
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), blocks * threads);
  const std::set<std::string> unique(lines.begin(), lines.end());
  ASSERT_EQ(unique.size(), blocks * threads) << "a line repeated or torn";
  for (unsigned id = 0; id < blocks * threads; ++id)
    EXPECT_TRUE(unique.count(fmt::format(
        "thread {:06} says the quick brown fox jumps over the lazy dog 0123456789 {:06}", id, id)))
        << id;
}

TEST(JsonOutputE2E, DeviceOutputThatIsNotUtf8StillMakesValidJson) {
  const auto r = run_gpurun("tests/data/e2e/print_bytes.cu --grid 1 --block 1 --json" + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = only_document(r);
  const std::string text = doc.at("device_output").get<std::string>();
  EXPECT_EQ(text.substr(0, 4), "raw ") << text;
  EXPECT_NE(text.find(" bytes\n"), std::string::npos) << text;
}

TEST(JsonOutputE2E, EveryDocumentOfRunCarriesDeviceOutputEvenWhenEmpty) {
  const auto r = run_gpurun("kernels/examples/scalar_add.json --json" + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(only_document(r).at("device_output"), "");
}

TEST(JsonOutputE2E, FailedCheckIsTheNormalDocumentWithExitOne) {
  const auto r =
      run_gpurun("kernels/examples/scalar_add.json --expect 'vector=f32[20]:0' --json" + cpu);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto doc = only_document(r);
  EXPECT_EQ(doc["status"], "check_failed");
  EXPECT_EQ(doc["exit_code"], 1);
  ASSERT_EQ(doc["checks"].size(), 1u);
  EXPECT_EQ(doc["checks"][0]["passed"], false);
  EXPECT_TRUE(doc["buffers"].contains("vector"));
}

TEST(JsonOutputE2E, DeviceOutputBeforeAFaultIsInTheErrorDocument) {
  const auto r = run_gpurun(
      "tests/data/e2e/print_then_fault.cu --grid 1 --block 1 --arg 'x=f32[8]' --json" + cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const auto doc = only_document(r);
  EXPECT_EQ(doc["status"], "error");
  EXPECT_EQ(doc["error"]["category"], "device");
  EXPECT_EQ(doc["device_output"], "before the fault: thread 0\n");
}

TEST(JsonOutputE2E, CompileErrorCarriesTheCompilerLog) {
  const auto r = run_gpurun(
      "tests/data/e2e/compile_error.cu --grid 1 --block 1 --arg 'x=f32[1]' --json" + cpu);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const auto doc = only_document(r);
  EXPECT_EQ(doc["error"]["category"], "compile");
  EXPECT_NE(doc["error"]["message"].get<std::string>().find("compile_error.cu"), std::string::npos);
  EXPECT_NE(doc["error"]["log"].get<std::string>().find("undefined_name"), std::string::npos)
      << doc.dump(2);
  EXPECT_NE(r.err.find("undefined_name"), std::string::npos) << "stderr still shows the log";
}

TEST(JsonOutputE2E, ThreadsJsonIsFormatJson) {
  const auto a = run_gpurun("threads --grid 2 --block 4 --json");
  const auto b = run_gpurun("threads --grid 2 --block 4 --format json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(only_document(a)["rows"].size(), 8u);
  const auto conflict = run_gpurun("threads --grid 2 --block 4 --json --format csv");
  EXPECT_EQ(conflict.exit_code, 2);
  EXPECT_EQ(only_document(conflict)["error"]["category"], "usage");
}

struct JsonError {
  std::string args;
  int exit_code;
  const char* category;
  const char* culprit; ///< must appear in error.message
};

void PrintTo(const JsonError& c, std::ostream* os) {
  *os << c.args;
}

class JsonErrorTest : public ::testing::TestWithParam<JsonError> {};

TEST_P(JsonErrorTest, IsOneDocumentWithTheExitCodeAndAOneLineMessage) {
  const JsonError& c = GetParam();
  const auto r = run_gpurun(c.args);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.out << r.err;
  const auto doc = only_document(r);
  EXPECT_EQ(doc["status"], "error");
  EXPECT_EQ(doc["exit_code"], r.exit_code);
  EXPECT_EQ(doc["error"]["category"], c.category);
  const std::string message = doc["error"].value("message", "");
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(c.culprit), std::string::npos) << message;
  EXPECT_FALSE(r.err.empty()) << "stderr keeps the line for people";
}

const std::string scalar_add = "kernels/examples/scalar_add.cu --grid 1 --block 20 ";
const std::string scalar_args = "--arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=1 ";

INSTANTIATE_TEST_SUITE_P(
    Cli, JsonErrorTest,
    ::testing::Values(
        JsonError{scalar_add + "--arg 'vector=f33[20]:iota' --arg size=20 --arg scalar=1 --json" +
                      cpu,
                  2, "usage", "f33"},
        JsonError{scalar_add + scalar_args + "--bogus --json" + cpu, 2, "usage", "--bogus"},
        JsonError{scalar_add + scalar_args + "--repeat 0 --json" + cpu, 2, "usage", "--repeat"},
        JsonError{"--json", 2, "usage", "file"},
        JsonError{"tests/data/e2e/bad_spec.json --json" + cpu, 2, "usage", "gird"},
        JsonError{"tests/data/e2e/compile_error.cu --grid 1 --block 1 --arg 'x=f32[1]' --json" +
                      cpu,
                  3, "compile", "compile_error.cu"},
        JsonError{"tests/data/e2e/oob.cu --grid 1 --block 32 --arg 'x=f32[8]' --memcheck --json" +
                      cpu,
                  4, "device", "oob"},
        JsonError{"tests/data/e2e/fault.cu --grid 1 --block 32 --arg 'x=f32[8]' --json" + cpu, 4,
                  "device", "fault"},
        JsonError{"tests/data/e2e/hang.cu --grid 1 --block 1 --arg 'flag=i32[1]:0' --timeout 1 "
                  "--json" +
                      cpu,
                  124, "timeout", "--timeout"},
        JsonError{scalar_add + scalar_args + "--device 3 --json" + cpu, 5, "unavailable", "3"},
        JsonError{"threads --grid 1 --block 0 --json", 2, "usage", "--block"},
        JsonError{"threads --grid 1 --block 0 --format json", 2, "usage", "--block"},
        JsonError{"devices --json --bogus", 2, "usage", "--bogus"}));

} // namespace
} // namespace gpurun::test
