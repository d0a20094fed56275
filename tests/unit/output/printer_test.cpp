#include "output/printer.hpp"

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "output/human_printer.hpp"
#include "output/json_printer.hpp"
#include "output/table_printers.hpp"

namespace gpurun {
namespace {

struct Printed {
  std::ostringstream out;
  std::ostringstream err;
  std::unique_ptr<Printer> printer;
  explicit Printed(OutputFormat format) : printer(make_printer(format, out, err)) {}
};

RunOutcome outcome_with_check(bool passed) {
  RunOutcome o;
  o.kernel = "k";
  o.backend = "cpu";
  o.device_name = "emulator";
  o.launch = LaunchConfig{Dim3{1, 1, 1}, Dim3{4, 1, 1}, 0};
  CheckReport c;
  c.name = "out";
  c.passed = passed;
  c.compared = 4;
  c.mismatches = passed ? 0 : 1;
  o.checks.push_back(c);
  o.status = passed ? "ok" : "check_failed";
  return o;
}

TEST(Printer, MakesThePrinterOfEachFormat) {
  for (const auto f :
       {OutputFormat::human, OutputFormat::json, OutputFormat::csv, OutputFormat::md})
    EXPECT_EQ(Printed(f).printer->format(), f);
}

TEST(Printer, AFormatWithoutAReportIsAUsageErrorNamingIt) {
  Printed csv(OutputFormat::csv);
  try {
    csv.printer->print_run(outcome_with_check(true), RunView{});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), "--format csv: not available for a run");
  }
  EXPECT_TRUE(csv.out.str().empty());
  Printed md(OutputFormat::md);
  EXPECT_THROW(md.printer->print_devices(DevicesReport{}), Error);
}

TEST(HumanPrinter, QuietRunPrintsOnlyAFailureAndOnce) {
  Printed ok(OutputFormat::human);
  ok.printer->print_launch(outcome_with_check(true));
  ok.printer->print_run(outcome_with_check(true), RunView{"outputs", true});
  EXPECT_EQ(ok.out.str(), "k<<<(1,1,1),(4,1,1)>>> on cpu:0 emulator\n");

  Printed failed(OutputFormat::human);
  failed.printer->print_run(outcome_with_check(false), RunView{"outputs", true});
  const std::string text = failed.out.str();
  const auto first = text.find("check out: FAILED");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find("check out: FAILED", first + 1), std::string::npos) << text;
}

TEST(JsonPrinter, RunIsOneDocumentAndNoLaunchLine) {
  Printed p(OutputFormat::json);
  p.printer->print_launch(outcome_with_check(true));
  p.printer->print_run(outcome_with_check(false), RunView{});
  const auto j = nlohmann::json::parse(p.out.str());
  EXPECT_EQ(j.at("status"), "check_failed");
  EXPECT_EQ(j.at("exit_code"), 1);
}

DevicesReport two_backends() {
  DevicesReport r;
  DeviceProperties p;
  p.name = "Test GPU";
  p.arch = "sm_90";
  p.multiprocessors = 132;
  p.total_memory = std::uint64_t{80} << 30;
  r.backends.push_back({"cuda", false, "libcuda.so.1 not found", {}, {}});
  r.backends.push_back({"cpu", true, "", {p}, {}});
  r.backends.push_back(
      {"cuda", true, "", {p, p}, {"nvml", "unavailable: libnvidia-ml.so.1 not found"}});
  r.compilers.push_back({"nvrtc", true, "13.0", "/x/libnvrtc.so.13", ""});
  r.compilers.push_back({"clang", false, "", "", "clang not found"});
  r.chosen = r.compilers[0];
  return r;
}

TEST(HumanPrinter, DevicesListBackendsDevicesAndCompilers) {
  Printed p(OutputFormat::human);
  p.printer->print_devices(two_backends());
  const std::string text = p.out.str();
  EXPECT_NE(text.find("cuda    unavailable: libcuda.so.1 not found\n"), std::string::npos) << text;
  EXPECT_NE(text.find("cpu     available, 1 device(s)\n  cpu:0  Test GPU (sm_90, 132 SMs"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("80.0 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("  clang  unavailable: clang not found\n"), std::string::npos) << text;
  EXPECT_NE(text.find(".cu files compile with nvrtc"), std::string::npos) << text;
  // Clocks are named under the devices that have them, and only there.
  EXPECT_NE(text.find("  cuda:0  Test GPU (sm_90, 132 SMs"), std::string::npos) << text;
  EXPECT_NE(text.find("KiB opt-in)\n    clocks: nvml\n  cuda:1  Test GPU"), std::string::npos)
      << text;
  EXPECT_NE(text.find("KiB opt-in)\n    clocks: unavailable: libnvidia-ml.so.1 not found\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("clocks"), text.find("    clocks: nvml") + 4) << text;
}

TEST(JsonPrinter, DevicesDocument) {
  Printed p(OutputFormat::json);
  p.printer->print_devices(two_backends());
  const auto j = nlohmann::json::parse(p.out.str());
  EXPECT_EQ(j.at("backends").at(0).at("reason"), "libcuda.so.1 not found");
  EXPECT_EQ(j.at("backends").at(1).at("devices").at(0).at("multiprocessors"), 132);
  EXPECT_FALSE(j.at("backends").at(1).at("devices").at(0).contains("clocks"));
  EXPECT_EQ(j.at("backends").at(2).at("devices").at(0).at("clocks"), "nvml");
  EXPECT_EQ(j.at("backends").at(2).at("devices").at(1).at("clocks"),
            "unavailable: libnvidia-ml.so.1 not found");
  EXPECT_EQ(j.at("compilers").at("selected"), "nvrtc");
  EXPECT_EQ(j.at("compilers").at("clang").at("available"), false);
}

TEST(JsonPrinter, DeviceCheckIsOneLine) {
  Printed p(OutputFormat::json);
  p.printer->print_device_check({"cuda", false, "no device"});
  EXPECT_EQ(p.out.str(), "{\"available\":false,\"backend\":\"cuda\"}\n");
  Printed human(OutputFormat::human);
  human.printer->print_device_check({"cuda", true, ""});
  EXPECT_TRUE(human.out.str().empty()) << "the exit code is the answer";
}

CompileReport compiled_with_resources() {
  CompileReport r{"k.cu", "", 1234, "cubin", "sm_90", "NVRTC 13.0", std::nullopt, std::nullopt};
  ResourceReport resources;
  resources.from_ptxas = true;
  PtxasKernelInfo k;
  k.name = "saxpy";
  k.registers = 16;
  k.spill_store_bytes = 8;
  k.spill_load_bytes = 4;
  resources.ptxas.push_back(k);
  resources.measured_by = "ptxas for sm_90, NVRTC 13.0";
  r.resources = resources;
  return r;
}

TEST(HumanPrinter, CompileLines) {
  Printed ok(OutputFormat::human);
  CompileReport plain{"k.cu",       "",           1234,         "ptx",
                      "compute_90", "NVRTC 13.0", std::nullopt, std::nullopt};
  ok.printer->print_compile(plain);
  EXPECT_EQ(ok.out.str(), "k.cu: ok (1234 bytes of ptx for compute_90, NVRTC 13.0)\n");

  Printed written(OutputFormat::human);
  plain.output_path = "k.ptx";
  written.printer->print_compile(plain);
  EXPECT_EQ(written.out.str(), "wrote k.ptx (1234 bytes, ptx for compute_90)\n");

  Printed resources(OutputFormat::human);
  resources.printer->print_compile(compiled_with_resources());
  const std::string text = resources.out.str();
  EXPECT_TRUE(text.starts_with("kernel ")) << "--resources alone prints only the table: " << text;
  EXPECT_NE(text.find("saxpy"), std::string::npos);
  EXPECT_NE(text.find("8/4"), std::string::npos);
  EXPECT_TRUE(text.ends_with("(ptxas for sm_90, NVRTC 13.0)\n")) << text;
}

TEST(JsonPrinter, CompileDocument) {
  Printed p(OutputFormat::json);
  CompileReport r = compiled_with_resources();
  r.ptx = ".version 8.0\n";
  p.printer->print_compile(r);
  const auto j = nlohmann::json::parse(p.out.str());
  EXPECT_EQ(j.at("file"), "k.cu");
  EXPECT_TRUE(j.at("output").is_null());
  EXPECT_EQ(j.at("bytes"), 1234);
  EXPECT_EQ(j.at("ptx"), ".version 8.0\n");
  EXPECT_EQ(j.at("resources").at("kernels").at(0).at("registers"), 16);
  EXPECT_EQ(j.at("resources").at("kernels").at(0).at("spill_store_bytes"), 8);
}

ThreadsReport threads_report(const ThreadTable& table, OutputFormat format) {
  const ThreadLayout layout({1, 1, 1}, {4, 1, 1}, 32);
  return ThreadsReport{
      summarize(layout), "--warp-size", "none", &table, TableView{format, std::nullopt, nullptr},
      std::nullopt};
}

TEST(MarkdownPrinter, ThreadsSummaryIsAListAndRowsAPipeTable) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {4, 1, 1}, 32));
  Printed p(OutputFormat::md);
  p.printer->print_threads(threads_report(table, OutputFormat::md));
  const std::string text = p.out.str();
  EXPECT_TRUE(text.starts_with("- grid (1,1,1) × block (4,1,1), warp size 32\n")) << text;
  EXPECT_NE(text.find("- warp size from: --warp-size\n"), std::string::npos) << text;
  EXPECT_NE(text.find("| block_x |"), std::string::npos) << text;
}

TEST(CsvPrinter, AFailedCaptureCheckStaysOffTheCsv) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {4, 1, 1}, 32));
  ThreadsReport report = threads_report(table, OutputFormat::csv);
  CaptureReport capture;
  capture.check.compared = 4;
  capture.check.arrivals = 3;
  report.capture = capture;
  Printed p(OutputFormat::csv);
  p.printer->print_threads(report);
  EXPECT_TRUE(p.out.str().starts_with("block_x,")) << p.out.str();
  EXPECT_EQ(p.out.str().find("capture check"), std::string::npos);
  EXPECT_NE(p.err.str().find("capture check: 3 threads arrived, 4 were launched"),
            std::string::npos)
      << p.err.str();
}

} // namespace
} // namespace gpurun
