#include "output/run_report.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace gpurun {
namespace {

HostBuffer make(DType t, const std::vector<double>& values, std::vector<std::size_t> shape = {}) {
  if (shape.empty())
    shape = {values.size()};
  HostBuffer b(t, shape);
  for (std::size_t i = 0; i < values.size(); ++i)
    store_from_double(t, b.element(i), values[i]);
  return b;
}

std::vector<double> iota(std::size_t n, double start) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = start + static_cast<double>(i);
  return v;
}

RunOutcome seed_outcome() {
  RunOutcome o;
  o.kernel = "scalar_add";
  o.lowered_name = "scalar_add";
  o.backend = "cpu";
  o.device_index = 0;
  o.device_name = "gpurun PTX emulator";
  o.launch = LaunchConfig{Dim3{1, 1, 1}, Dim3{20, 1, 1}, 0};
  o.timings.compile_ms = 12.34;
  o.timings.cache_hit = true;
  o.timings.h2d_ms = 0.01;
  o.timings.kernel_ms = 0.02;
  o.timings.kernel_samples_ms = {0.02};
  o.timings.d2h_ms = 0.01;
  o.buffers.push_back(
      {"vector", false, make(DType::i32, iota(20, 0)), make(DType::i32, iota(20, 20))});
  return o;
}

TEST(Report, LaunchLine) {
  RunOutcome o = seed_outcome();
  EXPECT_EQ(render_launch_line(o),
            "scalar_add<<<(1,1,1),(20,1,1)>>> on cpu:0 gpurun PTX emulator\n");
  o.launch.shared_bytes = 1024;
  o.launch.grid = Dim3{4, 2, 1};
  EXPECT_EQ(render_launch_line(o),
            "scalar_add<<<(4,2,1),(20,1,1),1024>>> on cpu:0 gpurun PTX emulator\n");
}

// What `gpurun run` prints: the launch line before the launch, the results after it.
TEST(Report, SeedRunExactly) {
  EXPECT_EQ(
      render_launch_line(seed_outcome()) + render_results(seed_outcome(), "outputs"),
      "scalar_add<<<(1,1,1),(20,1,1)>>> on cpu:0 gpurun PTX emulator\n"
      "vector (i32[20]) before: [ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19]\n"
      "vector (i32[20]) after:  [20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39]\n"
      "compile 12.34 ms (cache hit) · h2d 10 µs · kernel 20 µs · d2h 10 µs\n");
}

TEST(Report, LongBuffersAreElidedAndInputsPrintOnce) {
  RunOutcome o = seed_outcome();
  o.buffers.clear();
  o.buffers.push_back(
      {"x", true, make(DType::i32, iota(1000, 0)), make(DType::i32, iota(1000, 0))});
  o.buffers.push_back(
      {"y", false, make(DType::i32, iota(1000, 0)), make(DType::i32, iota(1000, 1))});
  const std::string outputs = render_results(o, "outputs");
  EXPECT_EQ(outputs.substr(0, outputs.find("compile")),
            "y (i32[1000]) before: [  0   1   2 ... 997 998 999]\n"
            "y (i32[1000]) after:  [   1    2    3 ...  998  999 1000]\n");
  const std::string all = render_results(o, "all");
  EXPECT_EQ(all.substr(0, all.find("y (")), "x (i32[1000]) input: [  0   1   2 ... 997 998 999]\n");
  EXPECT_EQ(render_results(o, "none").rfind("compile", 0), 0u);
  EXPECT_EQ(render_results(o, "x").rfind("x (i32[1000]) input:", 0), 0u);
}

TEST(Report, TwoDimensionalBuffersStartOnTheirOwnLine) {
  RunOutcome o = seed_outcome();
  o.buffers = {
      {"m", false, make(DType::i32, {1, 2, 3, 4}, {2, 2}), make(DType::i32, {5, 6, 7, 8}, {2, 2})}};
  const std::string r = render_results(o, "outputs");
  EXPECT_EQ(r.substr(0, r.find("compile")), "m (i32[2,2]) before:\n"
                                            "  [[1 2]\n"
                                            "   [3 4]]\n"
                                            "m (i32[2,2]) after: \n"
                                            "  [[5 6]\n"
                                            "   [7 8]]\n");
}

TEST(Report, UnknownPrintNameIsAUsageError) {
  try {
    (void)render_results(seed_outcome(), "vector,nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()),
              "--print vector,nope: no buffer named 'nope' (buffers: vector)");
  }
}

TEST(Report, ChecksTimingsAndStats) {
  RunOutcome o = seed_outcome();
  CheckReport ok;
  ok.name = "vector";
  ok.passed = true;
  ok.compared = 20;
  CheckReport bad;
  bad.name = "out";
  bad.compared = 1000;
  bad.mismatches = 12;
  bad.max_abs_error = 1.5;
  bad.max_rel_error = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < 10; ++i) {
    bad.first_mismatches.emplace_back(i * 100, std::to_string(i), "1234.5");
  }
  CheckReport shape;
  shape.name = "z";
  shape.message = "3 elements expected (f32[3]), the buffer has 2 (f32[2])";
  o.checks = {ok, bad, shape};
  o.status = "check_failed";
  o.timings.init_ms = 150.4;
  o.timings.kernel_samples_ms = {0.5, 0.25, 0.75};
  o.timings.kernel_ms = 0.5;
  o.timings.total_ms = 1234.5;
  o.timings.cache_hit = false;
  o.stats = {{"lane_instructions", 6400}, {"warp_instructions", 200}, {"seconds", 0.00123}};
  EXPECT_EQ(render_results(o, "none"),
            "check vector: ok (20 elements, max abs error 0, max rel error 0)\n"
            "check out: FAILED, 12 of 1000 elements differ (max abs error 1.5, max rel error inf)\n"
            "  index  got  expected\n"
            "      0  0    1234.5\n"
            "    100  1    1234.5\n"
            "    200  2    1234.5\n"
            "    300  3    1234.5\n"
            "    400  4    1234.5\n"
            "    500  5    1234.5\n"
            "    600  6    1234.5\n"
            "    700  7    1234.5\n"
            "    800  8    1234.5\n"
            "    900  9    1234.5\n"
            "  … 2 more\n"
            "check z: FAILED, 3 elements expected (f32[3]), the buffer has 2 (f32[2])\n"
            "init 150.4 ms · compile 12.34 ms · h2d 10 µs · kernel 500 µs (mean of 3, min 250 µs, "
            "max 750 µs) · d2h 10 µs · total 1.234 s\n"
            "stats: lane_instructions 6,400 · seconds 1.23 ms · warp_instructions 200\n"
            "status: check_failed\n");
}

TEST(Report, TimingLineNamesTheCompiler) {
  RunOutcome o = seed_outcome();
  o.compiler = "clang 14.0.6";
  const auto text = render_results(o, "none");
  EXPECT_NE(text.find("compile 12.34 ms (cache hit, clang 14.0.6) · "), std::string::npos) << text;
  o.timings.cache_hit = false;
  EXPECT_NE(render_results(o, "none").find("compile 12.34 ms (clang 14.0.6) · "),
            std::string::npos);
  EXPECT_EQ(to_json(o)["compiler"], "clang 14.0.6");
  o.compiler.clear();
  EXPECT_TRUE(to_json(o)["compiler"].is_null());
}

TEST(Report, Json) {
  RunOutcome o = seed_outcome();
  o.buffers.push_back({"x", true, make(DType::f32, {0.1, NAN, INFINITY, -INFINITY}),
                       make(DType::f32, {0.1, NAN, INFINITY, -INFINITY})});
  o.buffers.push_back({"big", false, HostBuffer(DType::u8, {2000}), HostBuffer(DType::u8, {2000})});
  CheckReport c;
  c.name = "vector";
  c.compared = 20;
  c.mismatches = 1;
  c.max_abs_error = 2;
  c.max_rel_error = std::numeric_limits<double>::infinity();
  c.first_mismatches = {{3, "23", "21"}};
  o.checks = {c};
  o.status = "check_failed";
  o.stats = {{"warp_instructions", 10}};
  const nlohmann::json j = to_json(o);
  EXPECT_EQ(j["kernel"], "scalar_add");
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["device"], "gpurun PTX emulator");
  EXPECT_EQ(j["device_index"], 0);
  EXPECT_EQ(j["grid"], nlohmann::json::array({1, 1, 1}));
  EXPECT_EQ(j["block"], nlohmann::json::array({20, 1, 1}));
  EXPECT_EQ(j["shared_bytes"], 0);
  EXPECT_EQ(j["timings_ms"]["compile"], 12.34);
  EXPECT_EQ(j["timings_ms"]["cache_hit"], true);
  EXPECT_EQ(j["timings_ms"]["kernel_samples"], nlohmann::json::array({0.02}));
  EXPECT_EQ(j["buffers"]["vector"]["dtype"], "i32");
  EXPECT_EQ(j["buffers"]["vector"]["shape"], nlohmann::json::array({20}));
  EXPECT_EQ(j["buffers"]["vector"]["input"], false);
  EXPECT_EQ(j["buffers"]["vector"]["values"][19], 39);
  EXPECT_EQ(j["buffers"]["x"]["input"], true);
  EXPECT_EQ(j["buffers"]["x"]["values"].dump(), R"([0.1,"nan","inf","-inf"])");
  EXPECT_FALSE(j["buffers"]["big"].contains("values")) << "more than 1024 elements";
  EXPECT_EQ(j["buffers"]["big"]["shape"], nlohmann::json::array({2000}));
  ASSERT_EQ(j["checks"].size(), 1u);
  EXPECT_EQ(j["checks"][0]["passed"], false);
  EXPECT_EQ(j["checks"][0]["max_rel_error"], "inf");
  EXPECT_EQ(j["checks"][0]["first_mismatches"][0].dump(),
            R"({"expected":"21","got":"23","index":3})");
  EXPECT_EQ(j["stats"]["warp_instructions"], 10);
  EXPECT_EQ(j["status"], "check_failed");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_FALSE(j.contains("device_output")) << "not kept: it went to stdout";
  // The document is valid JSON text (no NaN literals) and reads back as itself.
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);
}

TEST(Report, JsonCarriesKeptDeviceOutputAndExitCodeZero) {
  RunOutcome o = seed_outcome();
  o.device_output = "thread 0\nthread 1\n";
  const nlohmann::json j = to_json(o);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["device_output"], "thread 0\nthread 1\n");
  o.device_output = "";
  EXPECT_EQ(to_json(o)["device_output"], "") << "kept but empty is still there";
}

} // namespace
} // namespace gpurun
