// Device assert and __trap() on the CUDA backend: the driver prints a failed assert's lines on
// standard error (file descriptor 2; an H200 with driver 580 does) and the stream reports
// CUDA_ERROR_ASSERT; gpurun exits 4 with the first line in its error and passes the lines on to
// stderr, each once, stdout (the document under --json) untouched.
// tests/e2e/assert_test.cpp runs the same kernels on the CPU backend.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string failing = "tests/data/e2e/assert.cu --backend cuda --no-cache --grid 2 "
                            "--block 4 --arg 'x=f32[8]:iota' --arg n=6";
const std::string where = "assert.cu:7: void scale_checked(float *, int): block: [1,0,0], ";
const std::string thread_2 = where + "thread: [2,0,0] Assertion `i < n` failed.";
const std::string thread_3 = where + "thread: [3,0,0] Assertion `i < n` failed.";

bool cuda_available() {
  return run_gpurun("devices --check cuda").exit_code == 0;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

bool names_a_failing_thread(const std::string& text) {
  return text.find(thread_2) != std::string::npos || text.find(thread_3) != std::string::npos;
}

// The compilers to try: NVRTC's cubin, and clang's PTX (JIT-compiled by the driver) where clang
// is installed.
std::vector<std::string> compilers() {
  std::vector<std::string> found{" --compiler nvrtc"};
  if (run_gpurun("kernels/examples/scalar_add.json -q --backend cuda --no-cache --compiler clang")
          .exit_code != 5)
    found.push_back(" --compiler clang");
  return found;
}

TEST(GpuAssert, PassingAssertChangesNothing) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  for (const auto& compiler : compilers()) {
    const auto r = run_gpurun("tests/data/e2e/assert.cu --backend cuda --no-cache --grid 2 "
                              "--block 4 --arg 'x=f32[8]:iota' --arg n=8 "
                              "--expect 'x=f32[8]:iota(0,2)'" +
                              compiler);
    EXPECT_EQ(r.exit_code, 0) << compiler << "\n" << r.out << r.err;
  }
}

TEST(GpuAssert, FailingAssertExits4WithTheLineInTheError) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  // Without and with the watchdog (which waits by polling the stream), and with blocking
  // launches (where the launch itself reports the assert).
  for (const auto& compiler : compilers())
    for (const std::string extra : {"", " --timeout 10", "blocking"}) {
      SCOPED_TRACE(compiler + extra);
      const auto r =
          extra == "blocking"
              ? run_shell("CUDA_LAUNCH_BLOCKING=1 '" + gpurun_bin() + "' " + failing + compiler)
              : run_gpurun(failing + compiler + extra);
      EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
      EXPECT_EQ(r.out.find("Assertion"), std::string::npos) << r.out;
      // Both threads' lines once, then the error naming one of them.
      EXPECT_EQ(count_of(r.err, thread_2) + count_of(r.err, thread_3), 3u) << r.err;
      const auto error = r.err.find("gpurun: error: kernel 'scale_checked' failed an assertion: ");
      ASSERT_NE(error, std::string::npos) << r.err;
      const std::string error_line = r.err.substr(error);
      EXPECT_TRUE(names_a_failing_thread(error_line)) << r.err;
      EXPECT_NE(error_line.find("(and 1 more thread)"), std::string::npos) << r.err;
      EXPECT_NE(error_line.find("CUDA_ERROR_ASSERT"), std::string::npos) << r.err;
      EXPECT_EQ(count_of(error_line, "\n"), 1u) << r.err;
    }
}

TEST(GpuAssert, FailingAssertUnderJsonIsAnErrorDocument) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  for (const auto& compiler : compilers()) {
    SCOPED_TRACE(compiler);
    const auto r = run_gpurun(failing + compiler + " --json");
    EXPECT_EQ(r.exit_code, 4) << r.err;
    nlohmann::json doc;
    ASSERT_NO_THROW(doc = nlohmann::json::parse(r.out)) << "stdout is not one document:\n" << r.out;
    EXPECT_EQ(doc["exit_code"], 4);
    EXPECT_EQ(doc["error"]["category"], "device");
    EXPECT_EQ(doc["error"]["native_name"], "CUDA_ERROR_ASSERT");
    EXPECT_TRUE(names_a_failing_thread(doc["error"].value("message", ""))) << doc.dump(2);
    EXPECT_EQ(doc.value("device_output", "").find("Assertion"), std::string::npos) << doc.dump(2);
    EXPECT_EQ(count_of(r.err, thread_2) + count_of(r.err, thread_3), 3u) << r.err;
  }
}

TEST(GpuAssert, TrapExits4NamingTheKernel) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  const auto r = run_gpurun("tests/data/e2e/assert_trap.cu --backend cuda --no-cache --grid 2 "
                            "--block 8 --arg 'x=i32[16]' --arg block=1 --arg thread=5");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel 'trap_at'"), std::string::npos) << r.err;
  EXPECT_EQ(count_of(r.err, "\n"), 1u) << r.err;
}

} // namespace
} // namespace gpurun::test
