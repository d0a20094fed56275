// End-to-end: several devices in one host, through the real binary on the CPU backend's virtual
// devices (--cpu-devices): `bench --devices`, a device that fails, `--device N` on every command,
// an index the backend lacks, and `bench --p2p`.
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

// The stream suite at two small sizes: 16 cases.
const std::string stream = "bench kernels/suites/stream.json -a 'N[pow2]=[10:11]'";
const std::string quick =
    " --backend cpu --min-samples 3 --min-time 0.01 --timeout 2 --max-samples 10";
const std::string scalar_add = "kernels/examples/scalar_add.cu --grid 1 --block 20 --arg "
                               "'vector=f32[20]:iota' --arg size=20 --arg scalar=1 --backend cpu";

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(MultiDeviceE2E, DevicesSpreadTheSuiteAndTheReportNamesEachCasesDevice) {
  const auto dir = temp_dir();
  const auto json = dir / "all.json";
  const auto csv = dir / "all.csv";
  const auto r = run_gpurun(stream + quick + " --cpu-devices 2 --devices all --json '" +
                            json.string() + "' --csv '" + csv.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("on 2 devices of cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cpu:0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cpu:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpurun PTX emulator (sm_90), devices 0, 1"), std::string::npos) << r.out;

  const auto doc = read_json(json);
  const auto& devices = doc["context"]["gpurun"]["devices"];
  ASSERT_EQ(devices.size(), 2u);
  std::size_t measured = 0;
  for (const auto& d : devices) {
    EXPECT_EQ(d["status"], "ok");
    measured += d["cases"].get<std::size_t>();
  }
  std::set<std::string> names;
  for (const auto& b : doc["benchmarks"]) {
    if (!b.contains("gpurun"))
      continue;
    names.insert(b["name"].get<std::string>());
    const int index = b["gpurun"]["device_index"];
    EXPECT_TRUE(index == 0 || index == 1) << b.dump();
    EXPECT_EQ(b["gpurun"]["status"], "ok") << b.dump();
  }
  EXPECT_EQ(names.size(), 16u) << "every case once";
  EXPECT_EQ(measured, 16u);
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_TRUE(header.ends_with(",device_index,device")) << header;

  // The file is gpurun compare's input like any other.
  const auto same = run_gpurun("compare '" + json.string() + "' '" + json.string() + "'");
  EXPECT_EQ(same.exit_code, 0) << same.err << same.out;
}

TEST(MultiDeviceE2E, ADeviceThatFailsIsReportedAndTheOthersRunEverything) {
  const auto dir = temp_dir();
  const auto json = dir / "one_down.json";
  const auto r = run_shell("GPURUN_TEST_FAIL_DEVICE=1 '" + gpurun_bin() + "' " + stream + quick +
                               " --cpu-devices 3 --devices all --json '" + json.string() + "'",
                           source_dir());
  EXPECT_EQ(r.exit_code, 4) << "a failed device is a device error\n" << r.err << r.out;
  EXPECT_NE(r.out.find("device cpu:1 failed"), std::string::npos) << r.out;
  const auto doc = read_json(json);
  const auto& devices = doc["context"]["gpurun"]["devices"];
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[1]["status"], "failed");
  EXPECT_NE(devices[1]["error"].get<std::string>().find("GPURUN_TEST_FAIL_DEVICE"),
            std::string::npos);
  for (const auto& b : doc["benchmarks"]) {
    if (!b.contains("gpurun"))
      continue;
    EXPECT_EQ(b["gpurun"]["status"], "ok") << b.dump();
    EXPECT_NE(b["gpurun"]["device_index"], 1) << b.dump();
  }
}

TEST(MultiDeviceE2E, DeviceNSelectsTheDeviceOnEveryCommand) {
  const auto run = run_gpurun(scalar_add + " --cpu-devices 2 --device 1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["device_index"], 1);

  const auto threads =
      run_gpurun("threads --grid 2 --block 4 --run --backend cpu --cpu-devices 2 --device 1");
  EXPECT_EQ(threads.exit_code, 0) << threads.err;
  EXPECT_NE(threads.out.find("cpu:1"), std::string::npos) << threads.out;

  const auto compile = run_gpurun(
      "compile kernels/examples/scalar_add.cu --backend cpu --cpu-devices 2 --device 1 --ptx -o -");
  EXPECT_EQ(compile.exit_code, 0) << compile.err;
  EXPECT_NE(compile.out.find(".entry"), std::string::npos);

  const auto bench = run_gpurun(stream + quick + " --cpu-devices 2 --device 1 --filter copy");
  EXPECT_EQ(bench.exit_code, 0) << bench.err;
  EXPECT_NE(bench.out.find("on cpu:1"), std::string::npos) << bench.out;

  const auto devices = run_gpurun("devices --cpu-devices 3");
  EXPECT_EQ(devices.exit_code, 0) << devices.err;
  EXPECT_NE(devices.out.find("3 device(s)"), std::string::npos) << devices.out;
}

TEST(MultiDeviceE2E, AnIndexTheBackendLacksIsOneLineNamingTheField) {
  for (const std::string& args :
       {scalar_add + " --cpu-devices 2 --device 2",
        std::string("threads --grid 1 --block 4 --run --backend cpu --cpu-devices 2 --device 2"),
        stream + quick + " --cpu-devices 2 --devices 0,2"}) {
    const auto r = run_gpurun(args);
    EXPECT_EQ(r.exit_code, 5) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_TRUE(r.err.starts_with("gpurun: error: --device")) << r.err;
    EXPECT_NE(r.err.find("2 device(s)"), std::string::npos) << r.err;
  }
}

TEST(MultiDeviceE2E, AMalformedDeviceListIsAUsageError) {
  for (const std::string& list : {"0,x", "1-0", "0,0", "''"}) {
    const auto r = run_gpurun(stream + quick + " --cpu-devices 2 --devices " + list);
    EXPECT_EQ(r.exit_code, 2) << list << "\n" << r.err;
    EXPECT_TRUE(r.err.starts_with("gpurun: error: --devices")) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  }
  const auto both = run_gpurun(stream + quick + " --cpu-devices 2 --devices all --device 1");
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("conflicts with --device"), std::string::npos) << both.err;
  for (const char* count : {"0", "65", "x"}) {
    const auto r = run_gpurun(std::string("devices --cpu-devices ") + count);
    EXPECT_EQ(r.exit_code, 2) << count << "\n" << r.err;
    EXPECT_NE(r.err.find("--cpu-devices"), std::string::npos) << r.err;
  }
}

TEST(MultiDeviceE2E, P2pMeasuresEveryPairAndSavesTheMatrix) {
  const auto dir = temp_dir();
  const auto json = dir / "p2p.json";
  const auto r =
      run_gpurun("bench --p2p --backend cpu --cpu-devices 3 --json '" + json.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("copy bandwidth between cpu devices, GB/s"), std::string::npos) << r.out;
  const auto p2p = read_json(json)["context"]["gpurun"]["p2p"];
  EXPECT_EQ(p2p["devices"], nlohmann::json::array({0, 1, 2}));
  EXPECT_GT(p2p["bytes"].get<double>(), 0);
  ASSERT_EQ(p2p["gbs"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(p2p["gbs"][i].size(), 3u);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_GT(p2p["gbs"][i][j].get<double>(), 0) << i << "→" << j;
      EXPECT_EQ(p2p["path"][i][j], i == j ? "" : "direct");
    }
  }
  EXPECT_TRUE(p2p["errors"].empty());

  // A subset, after a suite: the matrix joins the suite's report.
  const auto both =
      run_gpurun(stream + quick + " --filter copy --cpu-devices 3 --devices 0,2 --p2p");
  EXPECT_EQ(both.exit_code, 0) << both.err;
  EXPECT_NE(both.out.find("copy bandwidth between cpu devices"), std::string::npos) << both.out;

  const auto missing = run_gpurun("bench --backend cpu");
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("unless --p2p"), std::string::npos) << missing.err;
}

TEST(MultiDeviceE2E, AFailingP2pDeviceIsReportedAndTheOtherPairsMeasured) {
  const auto r = run_shell("GPURUN_TEST_FAIL_DEVICE=2 '" + gpurun_bin() +
                               "' bench --p2p --backend cpu --cpu-devices 3 --json -",
                           source_dir());
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const auto p2p = nlohmann::json::parse(r.out)["context"]["gpurun"]["p2p"];
  EXPECT_GT(p2p["gbs"][0][1].get<double>(), 0);
  EXPECT_TRUE(p2p["gbs"][0][2].is_null());
  EXPECT_TRUE(p2p["gbs"][2][0].is_null());
  ASSERT_EQ(p2p["errors"].size(), 1u);
  EXPECT_NE(p2p["errors"][0].get<std::string>().find("cpu:2"), std::string::npos);
}

TEST(MultiDeviceE2E, ABufferOnAnotherDeviceCrossesByPeerCopiesBothWays) {
  const std::string kernel = "kernels/examples/scalar_add.cu --grid 1 --block 20 --arg size=20 "
                             "--arg scalar=1 --backend cpu --cpu-devices 2 --json";
  const auto here = run_gpurun(kernel + " --arg 'vector=f32[20]:iota'");
  const auto there = run_gpurun(kernel + " --arg 'vector=f32[20]@1:iota'");
  ASSERT_EQ(here.exit_code, 0) << here.err;
  ASSERT_EQ(there.exit_code, 0) << there.err;
  const auto a = nlohmann::json::parse(here.out);
  const auto b = nlohmann::json::parse(there.out);
  EXPECT_EQ(a["buffers"]["vector"]["values"], b["buffers"]["vector"]["values"]);
  EXPECT_EQ(b["buffers"]["vector"]["values"][3], 4.0) << "iota + 1, back on device 1";
  EXPECT_EQ(a["timings_ms"]["p2p"], 0.0);
  EXPECT_GT(b["timings_ms"]["p2p"].get<double>(), 0.0);

  const auto missing = run_gpurun(kernel + " --arg 'vector=f32[20]@2:iota'");
  EXPECT_EQ(missing.exit_code, 5) << missing.err;
  EXPECT_NE(missing.err.find("device 2 is not there"), std::string::npos) << missing.err;
}

} // namespace
} // namespace gpurun::test
