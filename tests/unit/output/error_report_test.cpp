#include "output/error_report.hpp"

#include <stdexcept>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpurun {
namespace {

TEST(ErrorReport, UsageErrorKeepsItsCodeAndOneLineMessage) {
  const auto doc = error_document(usage_error("--grid: required (e.g. --grid 1 or --grid 2,2)"));
  EXPECT_EQ(doc["status"], "error");
  EXPECT_EQ(doc["exit_code"], 2);
  EXPECT_EQ(doc["error"]["category"], "usage");
  EXPECT_EQ(doc["error"]["message"], "--grid: required (e.g. --grid 1 or --grid 2,2)");
  EXPECT_FALSE(doc["error"].contains("details"));
  EXPECT_FALSE(doc.contains("device_output")) << "only when the command kept device output";
  EXPECT_EQ(doc.begin().key(), "status") << "status first, for a reader of the raw text";
}

TEST(ErrorReport, EveryCategoryMapsToItsExitCode) {
  const std::pair<ExitCode, const char*> cases[] = {{ExitCode::usage, "usage"},
                                                    {ExitCode::compile, "compile"},
                                                    {ExitCode::device, "device"},
                                                    {ExitCode::unavailable, "unavailable"},
                                                    {ExitCode::timeout, "timeout"}};
  for (const auto& [code, name] : cases) {
    const auto doc = error_document(Error(code, "m"));
    EXPECT_EQ(doc["exit_code"], static_cast<int>(code)) << name;
    EXPECT_EQ(doc["error"]["category"], name);
  }
}

TEST(ErrorReport, CompileErrorCarriesItsLogApartFromTheMessage) {
  const CompileError e("k.cu: compile failed",
                       "k.cu(3): error: identifier \"x\" is undefined\n"
                       "1 error detected in the compilation of \"k.cu\".\n");
  EXPECT_EQ(std::string(e.what()).substr(0, 21), "k.cu: compile failed\n")
      << "what() still holds the log for stderr";
  const auto doc = error_document(e);
  EXPECT_EQ(doc["exit_code"], 3);
  EXPECT_EQ(doc["error"]["message"], "k.cu: compile failed");
  EXPECT_EQ(doc["error"]["log"], e.log());
  EXPECT_FALSE(doc["error"].contains("details"));
}

TEST(ErrorReport, FurtherLinesOfAMessageGoToDetails) {
  const auto doc = error_document(device_error("memcheck: 2 findings\nfirst one\nsecond one"));
  EXPECT_EQ(doc["error"]["message"], "memcheck: 2 findings");
  EXPECT_EQ(doc["error"]["details"], "first one\nsecond one");
}

TEST(ErrorReport, BackendErrorCarriesTheNativeStatus) {
  const BackendError e(ExitCode::device, "cuda", "cuStreamSynchronize", 700,
                       "CUDA_ERROR_ILLEGAL_ADDRESS", "kernel 'fault' faulted", "context.cpp", 42);
  const auto doc = error_document(e);
  EXPECT_EQ(doc["exit_code"], 4);
  EXPECT_EQ(doc["error"]["category"], "device");
  EXPECT_EQ(doc["error"]["message"], "kernel 'fault' faulted");
  EXPECT_EQ(doc["error"]["backend"], "cuda");
  EXPECT_EQ(doc["error"]["call"], "cuStreamSynchronize");
  EXPECT_EQ(doc["error"]["native_code"], 700);
  EXPECT_EQ(doc["error"]["native_name"], "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(doc["error"]["file"], "context.cpp");
  EXPECT_EQ(doc["error"]["line"], 42);
}

TEST(ErrorReport, AnyOtherExceptionIsInternalWithExitFour) {
  const std::runtime_error e("bad_alloc somewhere");
  EXPECT_EQ(exit_code_of(e), ExitCode::device);
  const auto doc = error_document(e);
  EXPECT_EQ(doc["exit_code"], 4);
  EXPECT_EQ(doc["error"]["category"], "internal");
  EXPECT_EQ(doc["error"]["message"], "bad_alloc somewhere");
}

TEST(ErrorReport, KeptDeviceOutputIsInTheDocumentEvenWhenEmpty) {
  const Error e(ExitCode::timeout, "kernel 'hang' did not finish within 1 s (--timeout)");
  EXPECT_EQ(error_document(e, std::string("before the hang\n"))["device_output"],
            "before the hang\n");
  EXPECT_EQ(error_document(e, std::string())["device_output"], "");
}

TEST(ErrorReport, DumpReplacesBytesThatAreNotUtf8) {
  const auto doc = error_document(device_error("m"), std::string("ok \xff\xfe end\n"));
  std::string text;
  ASSERT_NO_THROW(text = dump_document(doc));
  const auto parsed = nlohmann::json::parse(text);
  EXPECT_EQ(parsed["device_output"], "ok \xEF\xBF\xBD\xEF\xBF\xBD end\n");
  nlohmann::json run_document{{"device_output", "\xc3"}};
  EXPECT_NO_THROW({
    const auto parsed_back = nlohmann::json::parse(dump_document(run_document));
    EXPECT_TRUE(parsed_back.contains("device_output"));
  });
}

} // namespace
} // namespace gpurun
