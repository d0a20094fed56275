#include "bench/result_file.hpp"

#include <cstring>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

using nlohmann::json;

ResultFile parse(const std::string& text, const std::filesystem::path& folder = ".") {
  return parse_result_document(json::parse(text), "f.json", folder);
}

/// The message of the usage Error that parsing `text` throws.
std::string error_of(const std::string& text) {
  try {
    (void)parse(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(ResultFile, FormatNames) {
  EXPECT_EQ(to_string(ResultFormat::gpurun), "gpurun");
  EXPECT_EQ(to_string(ResultFormat::google_benchmark), "google-benchmark");
  EXPECT_EQ(to_string(ResultFormat::nvbench), "nvbench");
}

TEST(ResultFile, GpurunSamplesAndSkippedCases) {
  const auto file = parse(R"({"context": {"gpurun": {}}, "benchmarks": [
    {"name": "copy/N:4", "gpurun": {"status": "ok", "samples_s": [3e-6, 1e-6, 2e-6]}},
    {"name": "copy/N:4_mean", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 9},
    {"name": "bad", "error_occurred": true, "error_message": "launch failed",
     "gpurun": {"status": "skipped", "reason": "launch failed: out of memory"}}]})");
  EXPECT_EQ(file.format, ResultFormat::gpurun);
  ASSERT_EQ(file.cases.size(), 2u);
  EXPECT_EQ(file.cases[0].name, "copy/N:4");
  EXPECT_EQ(file.cases[0].samples_s, (std::vector<double>{3e-6, 1e-6, 2e-6}));
  EXPECT_FALSE(file.cases[0].skipped);
  EXPECT_EQ(file.cases[1].name, "bad");
  EXPECT_TRUE(file.cases[1].skipped);
  EXPECT_EQ(file.cases[1].reason, "launch failed: out of memory");
  EXPECT_TRUE(file.cases[1].samples_s.empty());
}

TEST(ResultFile, GpurunIsRecognizedWithoutContextToo) {
  const auto file =
      parse(R"({"benchmarks": [{"name": "k", "gpurun": {"samples_s": [1.0, 2.0]}}]})");
  EXPECT_EQ(file.format, ResultFormat::gpurun);
  EXPECT_EQ(file.cases.at(0).samples_s.size(), 2u);
}

TEST(ResultFile, GoogleBenchmarkUnitsAndRunNames) {
  const auto file = parse(R"({"context": {}, "benchmarks": [
    {"name": "BM_a/repeats:2", "run_name": "BM_a", "run_type": "iteration", "real_time": 2.5,
     "time_unit": "ms"},
    {"name": "BM_a/repeats:2", "run_name": "BM_a", "run_type": "iteration", "real_time": 3.5,
     "time_unit": "ms"},
    {"name": "BM_b", "run_type": "iteration", "real_time": 7, "time_unit": "us"},
    {"name": "BM_c", "real_time": 1, "time_unit": "s"},
    {"name": "BM_d", "run_type": "iteration", "real_time": 40},
    {"name": "BM_e", "run_type": "iteration", "error_occurred": true,
     "error_message": "no device", "real_time": 0}]})");
  EXPECT_EQ(file.format, ResultFormat::google_benchmark);
  ASSERT_EQ(file.cases.size(), 5u);
  EXPECT_EQ(file.cases[0].name, "BM_a");
  ASSERT_EQ(file.cases[0].samples_s.size(), 2u);
  EXPECT_DOUBLE_EQ(file.cases[0].samples_s[0], 2.5e-3);
  EXPECT_DOUBLE_EQ(file.cases[0].samples_s[1], 3.5e-3);
  EXPECT_DOUBLE_EQ(file.cases[1].samples_s.at(0), 7e-6);
  EXPECT_DOUBLE_EQ(file.cases[2].samples_s.at(0), 1.0);   // no run_type: an older writer
  EXPECT_DOUBLE_EQ(file.cases[3].samples_s.at(0), 40e-9); // no time_unit: nanoseconds
  EXPECT_TRUE(file.cases[4].skipped);
  EXPECT_EQ(file.cases[4].reason, "no device");
}

TEST(ResultFile, GoogleBenchmarkAggregatesOnlyWithoutIterations) {
  // Older writers have no run_name: the aggregate's suffix is taken off its name.
  const auto file = parse(R"({"benchmarks": [
    {"name": "BM_x_mean", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 5,
     "time_unit": "us"},
    {"name": "BM_y_mean", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 6,
     "time_unit": "us"},
    {"name": "BM_y_median", "run_type": "aggregate", "aggregate_name": "median", "real_time": 4,
     "time_unit": "us"},
    {"name": "BM_y_cv", "run_type": "aggregate", "aggregate_name": "cv",
     "aggregate_unit": "percentage", "real_time": 0.01, "time_unit": "us"}]})");
  ASSERT_EQ(file.cases.size(), 2u);
  EXPECT_EQ(file.cases[0].name, "BM_x");
  ASSERT_EQ(file.cases[0].samples_s.size(), 1u);
  EXPECT_DOUBLE_EQ(file.cases[0].samples_s[0], 5e-6);
  EXPECT_EQ(file.cases[1].name, "BM_y");
  ASSERT_EQ(file.cases[1].samples_s.size(), 1u);
  EXPECT_DOUBLE_EQ(file.cases[1].samples_s[0], 4e-6); // the median wins
}

TEST(ResultFile, NvbenchCaseNamesSkipsAndSummaries) {
  const auto file = parse(R"({"meta": {}, "benchmarks": [
    {"name": "reduce", "states": [
      {"name": "Device=0 T=F32", "is_skipped": false, "summaries": [
        {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64",
                                                   "value": "0.00125"}]}]},
      {"name": "Device=0 T=F64", "is_skipped": true, "skip_reason": "unsupported type"},
      {"name": "Device=0 T=I8", "is_skipped": false, "summaries": []}]},
    {"name": "host", "states": [{"name": "", "summaries": [
        {"tag": "nv/cpu_only/time/cpu/mean", "data": [{"name": "value", "value": 0.5}]}]}]}]})");
  EXPECT_EQ(file.format, ResultFormat::nvbench);
  ASSERT_EQ(file.cases.size(), 4u);
  EXPECT_EQ(file.cases[0].name, "reduce/Device=0 T=F32");
  EXPECT_EQ(file.cases[0].samples_s, (std::vector<double>{0.00125}));
  EXPECT_EQ(file.cases[1].name, "reduce/Device=0 T=F64");
  EXPECT_TRUE(file.cases[1].skipped);
  EXPECT_EQ(file.cases[1].reason, "unsupported type");
  EXPECT_TRUE(file.cases[2].skipped); // no time at all
  EXPECT_EQ(file.cases[3].name, "host");
  EXPECT_EQ(file.cases[3].samples_s, (std::vector<double>{0.5}));
}

TEST(ResultFile, NvbenchSampleFileIsLittleEndianFloat32RelativeToTheJson) {
  const auto dir = test::temp_dir();
  std::filesystem::create_directories(dir / "r.json-bin");
  {
    std::ofstream out(dir / "r.json-bin" / "0.bin", std::ios::binary);
    // 0.5f, 0.25f and 1.5f written byte by byte, least significant first.
    const unsigned char bytes[] = {0, 0, 0, 0x3f, 0, 0, 0x80, 0x3e, 0, 0, 0xc0, 0x3f};
    out.write(reinterpret_cast<const char*>(bytes), sizeof bytes);
  }
  const std::string doc = R"({"benchmarks": [{"name": "b", "states": [{"name": "s", "summaries": [
      {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "value": "9"}]},
      {"tag": "nv/json/bin:nv/cold/sample_times", "data": [
        {"name": "filename", "type": "string", "value": "r.json-bin/0.bin"},
        {"name": "size", "type": "int64", "value": "3"}]}]}]}]})";
  const auto file = parse(doc, dir);
  EXPECT_TRUE(file.warnings.empty());
  EXPECT_EQ(file.cases.at(0).samples_s, (std::vector<double>{0.5, 0.25, 1.5}));

  // A size that disagrees with the file: the summary value instead, and a warning.
  std::string wrong_size = doc;
  wrong_size.replace(wrong_size.find("\"3\""), 3, "\"4\"");
  const auto fallback = parse(wrong_size, dir);
  EXPECT_EQ(fallback.cases.at(0).samples_s, (std::vector<double>{9}));
  ASSERT_EQ(fallback.warnings.size(), 1u);
  EXPECT_NE(fallback.warnings[0].find("holds 3 float32 values, not the 4"), std::string::npos)
      << fallback.warnings[0];
}

TEST(ResultFile, ErrorsNameTheFileAndTheField) {
  EXPECT_EQ(error_of("[1, 2]"), "f.json: not a JSON object");
  EXPECT_EQ(error_of(R"({"context": {}})"),
            "f.json: benchmarks: missing: not a gpurun, Google Benchmark or nvbench result file");
  EXPECT_EQ(error_of(R"({"benchmarks": {}})"), "f.json: benchmarks: expected an array");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "k", "gpurun": {"samples_s": [1, "x"]}}]})"),
            "f.json: benchmarks[0].gpurun.samples_s[1]: expected a number");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "k", "gpurun": {"status": "ok"}}]})"),
            "f.json: benchmarks[0].gpurun.samples_s: missing");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "k", "real_time": 1, "time_unit": "min"}]})"),
            "f.json: benchmarks[0].time_unit: unknown unit \"min\"");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "a", "real_time": 1}, {"name": "k"}]})"),
            "f.json: benchmarks[1].real_time: missing");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "k", "real_time": "fast"}]})"),
            "f.json: benchmarks[0].real_time: expected a number");
  EXPECT_EQ(error_of(R"({"benchmarks": [{"name": "k", "run_type": "other", "real_time": 1}]})"),
            "f.json: benchmarks[0].run_type: expected \"iteration\" or \"aggregate\", got "
            "\"other\"");
  EXPECT_EQ(error_of(R"({"meta": {}, "benchmarks": [{"name": "b", "states": [{"summaries": [
                {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "value": "x1"}]}]}]}]})"),
            "f.json: benchmarks[0].states[0].summaries[0]: \"value\" of nv/cold/time/gpu/mean is "
            "not a number: \"x1\"");
}

TEST(ResultFile, UnreadableAndInvalidFiles) {
  const auto dir = test::temp_dir();
  try {
    (void)read_result_file(dir / "missing.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), (dir / "missing.json").string() +
                                         ": cannot read the result file: No such file or directory");
  }
  std::ofstream(dir / "broken.json") << "{\"benchmarks\": [";
  try {
    (void)read_result_file(dir / "broken.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()).rfind((dir / "broken.json").string() + ": invalid JSON: ", 0),
              0u)
        << e.what();
  }
}

} // namespace
} // namespace gpurun::bench
