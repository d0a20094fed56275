// --json on the CUDA backend: the driver writes device printf to file descriptor 1 itself, and
// gpurun must take it into the document (tests/e2e/json_output_test.cpp does the same on cpu).
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cuda = " --backend cuda --no-cache --json";

bool cuda_available() {
  return run_gpurun("devices --check cuda").exit_code == 0;
}

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

std::size_t line_count(const std::string& text) {
  std::size_t n = 0;
  for (char c : text)
    n += c == '\n';
  return n;
}

TEST(GpuJsonOutput, PrintThreadsGoesIntoTheDocument) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  // Without and with the watchdog: the second waits by polling, which is not a printf flush point.
  for (const std::string extra : {"", " --timeout 10", " --repeat 3"}) {
    const auto r = run_gpurun("kernels/examples/print_threads.json" + cuda + extra);
    ASSERT_EQ(r.exit_code, 0) << extra << "\n" << r.err;
    const auto doc = only_document(r);
    const std::string text = doc.value("device_output", "");
    const std::size_t launches = extra == " --repeat 3" ? 3 : 1;
    EXPECT_EQ(line_count(text), 128 * launches) << extra << "\n" << text;
    EXPECT_NE(text.find("block_idx: [1, 1, 0]\tthread_idx: [3, 3, 1]\tglobal_idx: [7, 7, 1]"),
              std::string::npos);
  }
}

TEST(GpuJsonOutput, LargeDeviceOutputArrivesComplete) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  // 4096 printf records (format and arguments) fit the driver's default 1 MiB printf FIFO.
  const auto r = run_gpurun("tests/data/e2e/print_many.cu --grid 32 --block 128" + cuda);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = only_document(r).value("device_output", "");
  std::set<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.insert(line);
  EXPECT_EQ(lines.size(), 4096u);
  EXPECT_TRUE(lines.count(
      "thread 004095 says the quick brown fox jumps over the lazy dog 0123456789 004095"));
}

TEST(GpuJsonOutput, FaultAndTimeoutAreErrorDocuments) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  const auto fault = run_gpurun("tests/data/e2e/print_then_fault.cu --grid 1 --block 32 "
                                "--arg 'x=f32[8]'" +
                                cuda);
  EXPECT_EQ(fault.exit_code, 4) << fault.err;
  const auto f = only_document(fault);
  EXPECT_EQ(f["exit_code"], 4);
  EXPECT_EQ(f["error"]["backend"], "cuda");
  // The H200 reports this kernel's stray store as CUDA_ERROR_INVALID_ADDRESS_SPACE; other GPUs
  // may name it CUDA_ERROR_ILLEGAL_ADDRESS. Either way the driver's own name is carried.
  const auto native = f["error"].value("native_name", std::string());
  EXPECT_TRUE(native == "CUDA_ERROR_INVALID_ADDRESS_SPACE" ||
              native == "CUDA_ERROR_ILLEGAL_ADDRESS")
      << native;
  EXPECT_TRUE(f.contains("device_output")) << "whatever the driver flushed, never on stdout";

  const auto hang = run_gpurun(
      "tests/data/e2e/hang.cu --grid 1 --block 1 --arg 'flag=i32[1]:0' --timeout 1" + cuda);
  EXPECT_EQ(hang.exit_code, 124) << hang.err;
  EXPECT_EQ(only_document(hang)["error"]["category"], "timeout");
}

} // namespace
} // namespace gpurun::test
