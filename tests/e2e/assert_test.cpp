// End-to-end: device `assert` and `__trap()` on the CPU backend, with NVRTC's PTX and with
// clang's. A failed assert prints CUDA's line on stderr, as the driver does, and ends the run with
// exit 4 and that line in the error; one that holds changes nothing.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string kernel = "tests/data/e2e/assert.cu --backend cpu --no-cache --grid 2 --block 4 "
                           "--arg 'x=f32[8]:iota' ";
// Threads 6 and 7 (block 1, threads 2 and 3) are past n = 6.
const std::string failing = kernel + "--arg n=6";
const std::string where = "assert.cu:7: void scale_checked(float *, int): ";
const std::string thread_2 = where + "block: [1,0,0], thread: [2,0,0] Assertion `i < n` failed.";
const std::string thread_3 = where + "block: [1,0,0], thread: [3,0,0] Assertion `i < n` failed.";

std::size_t lines_of(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The last line of text that ends with a newline.
std::string last_line(const std::string& text) {
  if (text.size() < 2)
    return {};
  const auto start = text.rfind('\n', text.size() - 2);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     text.size() - 1 - (start == std::string::npos ? 0 : start + 1));
}

class AssertE2E : public ::testing::Test {
protected:
  [[nodiscard]] virtual std::string compiler() const = 0;
  [[nodiscard]] RunResult run(const std::string& args) const {
    return run_gpurun(args + " --compiler " + compiler());
  }

  void passing_assert_changes_nothing() const {
    const auto r = run(kernel + "--arg n=8 --expect 'x=f32[8]:iota(0,2)'");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("Assertion"), std::string::npos) << r.out;
  }

  void failing_assert_is_a_device_error_naming_the_thread() const {
    const auto r = run(failing);
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    // As on a GPU: every thread that failed prints its line on stderr, and stdout has none.
    EXPECT_NE(r.err.find(thread_2 + "\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(thread_3 + "\n"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("Assertion"), std::string::npos) << r.out;
    // The error follows them, one line: the kernel and the first thread's line.
    const std::string error = last_line(r.err);
    EXPECT_EQ(error.rfind("gpurun: error: kernel 'scale_checked' failed an assertion: ", 0), 0u)
        << r.err;
    EXPECT_NE(error.find(thread_2), std::string::npos) << r.err;
    EXPECT_EQ(lines_of(r.err), 3u) << r.err;
  }

  void failing_assert_under_json_is_an_error_document() const {
    const auto r = run(failing + " --json");
    EXPECT_EQ(r.exit_code, 4) << r.err;
    const auto doc = nlohmann::json::parse(r.out); // stdout is the document alone
    EXPECT_EQ(doc.at("exit_code"), 4);
    EXPECT_EQ(doc.at("error").at("category"), "device");
    const auto message = doc.at("error").at("message").get<std::string>();
    EXPECT_NE(message.find(thread_2), std::string::npos) << message;
    EXPECT_EQ(doc.value("device_output", "").find("Assertion"), std::string::npos) << doc;
    EXPECT_NE(r.err.find(thread_3 + "\n"), std::string::npos) << r.err;
  }

  void ndebug_removes_the_assert() const {
    const auto r = run(failing + " -D NDEBUG --expect 'x=f32[8]:iota(0,2)'");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }

  void of_many_failing_threads_the_first_printed_is_reported() const {
    // Every thread of 16 blocks on 4 workers fails: blocks race to print, and the error names
    // the line printed first.
    const auto r = run("tests/data/e2e/assert.cu --backend cpu --no-cache --grid 16 --block 64 "
                       "--arg 'x=f32[1024]' --arg n=0 --cpu-threads 4");
    ASSERT_EQ(r.exit_code, 4) << r.err;
    const std::string first = r.err.substr(0, r.err.find('\n'));
    ASSERT_NE(first.find("Assertion `i < n` failed."), std::string::npos) << r.err;
    const std::string error = last_line(r.err);
    EXPECT_EQ(error, "gpurun: error: kernel 'scale_checked' failed an assertion: " + first);
  }

  void trap_is_a_device_error_naming_the_thread() const {
    const auto r = run("tests/data/e2e/assert_trap.cu --backend cpu --no-cache --grid 2 "
                       "--block 8 --arg 'x=i32[16]' --arg block=1 --arg thread=5");
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.err.find("kernel 'trap_at' executed trap at block (1,0,0) thread (5,0,0)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(lines_of(r.err), 1u) << r.err;
  }
};

class AssertNvrtcE2E : public AssertE2E {
protected:
  void SetUp() override {
    const auto devices = nlohmann::json::parse(run_gpurun("devices --json").out);
    const auto& nvrtc = devices.at("compilers").at("nvrtc");
    if (!nvrtc.at("available").get<bool>())
      GTEST_SKIP() << "NVRTC unavailable: " << nvrtc.value("reason", std::string());
  }
  [[nodiscard]] std::string compiler() const override { return "nvrtc"; }
};

class AssertClangE2E : public AssertE2E {
protected:
  void SetUp() override {
    // Exit 5 names what is missing when clang cannot be used.
    static const RunResult probe =
        run_gpurun("kernels/examples/scalar_add.json -q --backend cpu --no-cache --compiler clang");
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
  [[nodiscard]] std::string compiler() const override { return "clang"; }
};

TEST_F(AssertNvrtcE2E, PassingAssertChangesNothing) {
  passing_assert_changes_nothing();
}
TEST_F(AssertNvrtcE2E, FailingAssertIsADeviceErrorNamingTheThread) {
  failing_assert_is_a_device_error_naming_the_thread();
}
TEST_F(AssertNvrtcE2E, FailingAssertUnderJsonIsAnErrorDocument) {
  failing_assert_under_json_is_an_error_document();
}
TEST_F(AssertNvrtcE2E, NdebugRemovesTheAssert) {
  ndebug_removes_the_assert();
}
TEST_F(AssertNvrtcE2E, OfManyFailingThreadsTheFirstPrintedIsReported) {
  of_many_failing_threads_the_first_printed_is_reported();
}
TEST_F(AssertNvrtcE2E, TrapIsADeviceErrorNamingTheThread) {
  trap_is_a_device_error_naming_the_thread();
}

TEST_F(AssertClangE2E, PassingAssertChangesNothing) {
  passing_assert_changes_nothing();
}
TEST_F(AssertClangE2E, FailingAssertIsADeviceErrorNamingTheThread) {
  failing_assert_is_a_device_error_naming_the_thread();
}
TEST_F(AssertClangE2E, FailingAssertUnderJsonIsAnErrorDocument) {
  failing_assert_under_json_is_an_error_document();
}
TEST_F(AssertClangE2E, NdebugRemovesTheAssert) {
  ndebug_removes_the_assert();
}
TEST_F(AssertClangE2E, OfManyFailingThreadsTheFirstPrintedIsReported) {
  of_many_failing_threads_the_first_printed_is_reported();
}
TEST_F(AssertClangE2E, TrapIsADeviceErrorNamingTheThread) {
  trap_is_a_device_error_naming_the_thread();
}

} // namespace
} // namespace gpurun::test
