// End-to-end: `gpurun capture` on a program that drives a fake libcuda.so.1 (fake_cuda/), so that
// the interposer runs where there is no GPU. The real gpurun binary runs the program
// (fake_cuda/fake_cuda_app.cpp) with LD_LIBRARY_PATH at the fake's folder, and the tests check
// that the program runs as it does alone and that each capture holds what that launch was given
// and did: the kernel, the grid, the parameter bytes and layout, the module as loaded, and the
// memory before and after. The memory files are found by the names launch.json gives them.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/npy.hpp"
#include "fake_cuda/fake_module.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace fake_cuda;

constexpr int n = 1000;
const std::string saxpy_folder = std::string(saxpy_name) + "-";
const std::string scale_bias_folder = std::string(scale_bias_name) + "-1";

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (const char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The folder of the fake libcuda.so.1: a 12.4 driver, or a 12.3 one without
/// cuFuncGetParamInfo and cuKernelGetParamInfo.
fs::path fake_cuda_dir() {
  return GPURUN_TEST_FAKE_CUDA_DIR;
}
fs::path fake_cuda_12_3_dir() {
  return GPURUN_TEST_FAKE_CUDA_12_3_DIR;
}

/// `timeout` and `env` for a command that runs the program on the fake driver: a program that
/// hangs (a dlsym that calls itself) fails instead of stopping the test. Under ASan (the
/// sanitized build), preloading the interposer into the instrumented program needs
/// verify_asan_link_order=0.
std::string environment(const fs::path& libcuda, const std::string& more) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string asan_options =
      (asan != nullptr && *asan != '\0' ? std::string(asan) + ":" : std::string()) +
      "verify_asan_link_order=0";
  return "timeout 120 env LD_LIBRARY_PATH=" + quoted(libcuda.string()) +
         " ASAN_OPTIONS=" + quoted(asan_options) + " " + more + " ";
}

std::string app_command(const std::string& args) {
  return quoted(GPURUN_TEST_FAKE_CUDA_APP) + " " + args;
}

/// The program alone.
RunResult run_plain(const std::string& args, const fs::path& libcuda = fake_cuda_dir(),
                    const std::string& env = "") {
  return run_shell(environment(libcuda, env) + app_command(args));
}

struct Capture {
  RunResult run;
  fs::path out;
};

/// `gpurun capture OPTIONS -- fake_cuda_app ARGS` into a fresh folder.
Capture capture(const std::string& options, const std::string& args,
                const fs::path& libcuda = fake_cuda_dir(), const std::string& env = "") {
  const fs::path out = temp_dir() / "caps";
  const auto run = run_shell(environment(libcuda, env) + quoted(gpurun_bin()) + " capture --out " +
                             quoted(out.string()) + " " + options + " -- " + app_command(args));
  return {run, out};
}

std::set<std::string> folders(const fs::path& out) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec))
    names.insert(entry.path().filename().string());
  return names;
}

json record(const fs::path& folder) {
  const std::string text = slurp(folder / "launch.json");
  EXPECT_FALSE(text.empty()) << folder / "launch.json";
  return json::parse(text, nullptr, false);
}

std::vector<std::byte> bytes_of(const void* data, std::size_t size) {
  std::vector<std::byte> out(size);
  if (size > 0)
    std::memcpy(out.data(), data, size);
  return out;
}
std::vector<std::byte> bytes_of(const std::vector<float>& values) {
  return bytes_of(values.data(), values.size() * sizeof(float));
}
std::vector<std::byte> file_bytes(const fs::path& file) {
  const std::string s = slurp(file);
  return bytes_of(s.data(), s.size());
}

/// The bytes a memory file holds: its contents, or the array's data where it is a .npy file.
std::vector<std::byte> saved_bytes(const fs::path& file) {
  std::vector<std::byte> bytes = file_bytes(file);
  if (slurp(file).rfind("\x93NUMPY", 0) == 0) {
    const HostBuffer array = parse_npy(bytes, file.string());
    bytes.assign(array.bytes().begin(), array.bytes().end());
  }
  return bytes;
}

/// launch.json's memory entry that the pointer at `offset_in_param` of parameter `param` points
/// into, and that pointer's entry; null entries when there is none.
struct Reached {
  json pointer;
  json memory;
};
Reached reached(const json& rec, std::size_t param, std::size_t offset_in_param = 0) {
  for (const auto& p : rec["pointers"])
    if (p["param"] == param && p["offset_in_param"] == offset_in_param)
      for (const auto& m : rec["memory"])
        if (m["name"] == p["memory"])
          return {p, m};
  ADD_FAILURE() << "no pointer at parameter " << param << " + " << offset_in_param << " in "
                << rec.dump();
  return {};
}

/// The device addresses the program printed (--print-addresses).
struct Addresses {
  std::uint64_t x = 0;
  std::uint64_t y_allocation = 0;
  std::uint64_t bias = 0;
  [[nodiscard]] std::uint64_t y() const { return y_allocation + sizeof(float) * y_offset; }
};
Addresses addresses(const std::string& err) {
  Addresses a;
  const auto at = err.find("fake_cuda_app: x=");
  EXPECT_NE(at, std::string::npos) << err;
  if (at != std::string::npos) {
    EXPECT_EQ(std::sscanf(err.c_str() + at,
                          "fake_cuda_app: x=%" SCNx64 " y=%" SCNx64 " bias=%" SCNx64, &a.x,
                          &a.y_allocation, &a.bias),
              3)
        << err;
  }
  return a;
}

std::vector<std::byte> saxpy_params(float a, const Addresses& at) {
  unsigned char bytes[24] = {};
  const std::int32_t count = n;
  const std::uint64_t y = at.y();
  std::memcpy(bytes, &count, 4);
  std::memcpy(bytes + 4, &a, 4);
  std::memcpy(bytes + 8, &at.x, 8);
  std::memcpy(bytes + 16, &y, 8);
  return bytes_of(bytes, sizeof bytes);
}

/// The saved contents of the memory a pointer reaches, before and after the launch, equal
/// `before` and `after` (whole allocations).
void expect_memory(const fs::path& folder, const Reached& r, const std::vector<float>& before,
                   const std::vector<float>& after) {
  ASSERT_TRUE(r.memory.is_object());
  EXPECT_EQ(r.memory["saved"], before.size() * sizeof(float));
  EXPECT_EQ(saved_bytes(folder / r.memory["before"].get<std::string>()), bytes_of(before))
      << r.memory["before"];
  EXPECT_EQ(saved_bytes(folder / r.memory["after"].get<std::string>()), bytes_of(after))
      << r.memory["after"];
}

const json saxpy_slots = json::parse(R"([{"offset": 0, "size": 4}, {"offset": 4, "size": 4},
                                         {"offset": 8, "size": 8}, {"offset": 16, "size": 8}])");
const json scale_bias_slots =
    json::parse(R"([{"offset": 0, "size": 24}, {"offset": 24, "size": 8}])");

/// Every launch captured, each holding its own launch: what `--all` must give on every path to
/// the driver.
void expect_every_launch(const std::string& mode, const fs::path& libcuda = fake_cuda_dir(),
                         const std::string& env = "") {
  SCOPED_TRACE(mode + " on " + libcuda.filename().string() + " " + env);
  const auto plain = run_plain(mode, libcuda, env);
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  const auto c = capture("--all", mode + " --print-addresses", libcuda, env);
  ASSERT_EQ(c.run.exit_code, 0) << c.run.out << c.run.err;
  EXPECT_EQ(c.run.out, plain.out);
  EXPECT_EQ(folders(c.out), (std::set<std::string>{saxpy_folder + "1", saxpy_folder + "2",
                                                   saxpy_folder + "3", scale_bias_folder}))
      << c.run.err;
  const Addresses at = addresses(c.run.err);
  for (int k = 1; k <= saxpy_launches; ++k) {
    SCOPED_TRACE("saxpy launch " + std::to_string(k));
    const fs::path folder = c.out / (saxpy_folder + std::to_string(k));
    const json rec = record(folder);
    EXPECT_EQ(rec["launch"], k);
    EXPECT_EQ(rec["complete"], true) << rec["incomplete"];
    EXPECT_EQ(rec["param_slots"], saxpy_slots);
    EXPECT_EQ(file_bytes(folder / "params.bin"), saxpy_params(saxpy_a(k), at));
    expect_memory(folder, reached(rec, 3), y_allocation_values(n, k - 1, false),
                  y_allocation_values(n, k, false));
  }
  const fs::path folder = c.out / scale_bias_folder;
  const json rec = record(folder);
  EXPECT_EQ(rec["param_slots"], scale_bias_slots);
  EXPECT_EQ(rec["complete"], true) << rec["incomplete"];
  expect_memory(folder, reached(rec, 0, 8), bias_values(n), bias_values(n));
  expect_memory(folder, reached(rec, 1), y_allocation_values(n, saxpy_launches, false),
                y_allocation_values(n, saxpy_launches, true));
}

TEST(CaptureE2E, TheProgramRunsAsItDoesAlone) {
  const auto plain = run_plain("linked");
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  ASSERT_NE(plain.out.find("as expected"), std::string::npos) << plain.out;
  for (const std::string mode : {"linked", "dlsym", "proc"}) {
    const auto c = capture("--all", mode);
    EXPECT_EQ(c.run.exit_code, 0) << mode << ": " << c.run.err;
    EXPECT_EQ(c.run.out, plain.out) << mode;
  }
  // gpurun capture exits with the program's status.
  EXPECT_EQ(run_plain("linked --exit 7").exit_code, 7);
  const auto c = capture("--all", "linked --exit 7");
  EXPECT_EQ(c.run.exit_code, 7) << c.run.err;
  EXPECT_EQ(c.run.out, plain.out);
  EXPECT_EQ(folders(c.out).size(), 4u);
}

TEST(CaptureE2E, NthCapturesThatLaunchOnlyWithEverythingItWasGiven) {
  const auto c = capture("--kernel '_Z5saxpy*' --nth 2", "linked --print-addresses");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  ASSERT_EQ(folders(c.out), std::set<std::string>{saxpy_folder + "2"}) << c.run.err;
  const fs::path folder = c.out / (saxpy_folder + "2");
  const json rec = record(folder);
  EXPECT_EQ(rec["kernel"], std::string(saxpy_name));
  EXPECT_EQ(rec["launch"], 2);
  EXPECT_EQ(rec["grid"], json({(n + saxpy_block - 1) / saxpy_block, 1, 1}));
  EXPECT_EQ(rec["block"], json({saxpy_block, 1, 1}));
  EXPECT_EQ(rec["shared_bytes"], 0);
  EXPECT_EQ(rec["module_kind"], "ptx");
  EXPECT_EQ(rec["device"], "gpurun fake CUDA device");
  EXPECT_EQ(rec["arch"], "sm_90");
  EXPECT_EQ(rec["param_slots"], saxpy_slots);
  EXPECT_EQ(rec["complete"], true) << rec["incomplete"];
  // The module as the driver was handed it: the PTX text and the NUL that ends it.
  EXPECT_EQ(slurp(folder / rec["module"].get<std::string>()),
            std::string(module_ptx, sizeof module_ptx));
  // The second launch passed its parameters through `extra`: the same bytes.
  const Addresses at = addresses(c.run.err);
  EXPECT_EQ(file_bytes(folder / rec["params"].get<std::string>()), saxpy_params(saxpy_a(2), at));

  const Reached x = reached(rec, 2);
  EXPECT_EQ(x.memory["address"], at.x);
  EXPECT_EQ(x.memory["size"], n * sizeof(float));
  EXPECT_EQ(x.memory["kind"], "device");
  EXPECT_EQ(x.pointer["offset"], 0);
  expect_memory(folder, x, x_values(n), x_values(n));
  // y points 64 floats into an allocation of cuMemAllocAsync's, which is saved whole.
  const Reached y = reached(rec, 3);
  EXPECT_EQ(y.memory["address"], at.y_allocation);
  EXPECT_EQ(y.memory["size"], (n + y_offset) * sizeof(float));
  EXPECT_EQ(y.memory["kind"], "pool");
  EXPECT_EQ(y.pointer["offset"], y_offset * sizeof(float));
  expect_memory(folder, y, y_allocation_values(n, 1, false), y_allocation_values(n, 2, false));
  EXPECT_EQ(rec["memory"].size(), 2u) << rec["memory"];
}

TEST(CaptureE2E, KernelGlobSelectsByNameAndThePointerInAStructIsFound) {
  const auto c = capture("--kernel '*scale_bias*'", "linked --print-addresses");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  ASSERT_EQ(folders(c.out), std::set<std::string>{scale_bias_folder}) << c.run.err;
  const fs::path folder = c.out / scale_bias_folder;
  const json rec = record(folder);
  EXPECT_EQ(rec["kernel"], std::string(scale_bias_name));
  EXPECT_EQ(rec["launch"], 1);
  EXPECT_EQ(rec["grid"], json({(n + scale_bias_block - 1) / scale_bias_block, 1, 1}));
  EXPECT_EQ(rec["block"], json({scale_bias_block, 1, 1}));
  EXPECT_EQ(rec["shared_bytes"], scale_bias_shared_bytes);
  EXPECT_EQ(rec["param_slots"], scale_bias_slots);
  EXPECT_EQ(rec["complete"], true) << rec["incomplete"];
  // Loaded a second time, as a library: the same text.
  EXPECT_EQ(slurp(folder / rec["module"].get<std::string>()),
            std::string(module_ptx, sizeof module_ptx));

  const Addresses at = addresses(c.run.err);
  Scale s;
  s.a = scale;
  s.bias = at.bias;
  s.n = n;
  std::vector<std::byte> params = bytes_of(&s, sizeof s);
  const std::uint64_t y = at.y();
  const auto out = bytes_of(&y, sizeof y);
  params.insert(params.end(), out.begin(), out.end());
  EXPECT_EQ(file_bytes(folder / rec["params"].get<std::string>()), params);

  // The bias pointer, 8 bytes into the struct passed by value.
  const Reached bias = reached(rec, 0, 8);
  EXPECT_EQ(bias.memory["address"], at.bias);
  EXPECT_EQ(bias.pointer["offset"], 0);
  expect_memory(folder, bias, bias_values(n), bias_values(n));
  const Reached y_reached = reached(rec, 1);
  EXPECT_EQ(y_reached.memory["address"], at.y_allocation);
  expect_memory(folder, y_reached, y_allocation_values(n, saxpy_launches, false),
                y_allocation_values(n, saxpy_launches, true));
}

TEST(CaptureE2E, AllCapturesEveryLaunchOfALinkingProgram) {
  expect_every_launch("linked");
}

TEST(CaptureE2E, AllCapturesEveryLaunchOfAProgramThatUsesDlsym) {
  expect_every_launch("dlsym");
}

TEST(CaptureE2E, AllCapturesEveryLaunchOfAProgramThatUsesCuGetProcAddress) {
  expect_every_launch("proc");
}

// Without cuFuncGetParamInfo and cuKernelGetParamInfo (a driver before 12.4), the layouts come from
// the PTX the program loaded: the same captures, the struct and its pointer included. The
// linking program launches scale_bias through its CUkernel, the dlsym one through the
// CUfunction cuKernelGetFunction made of it.
TEST(CaptureE2E, ParamLayoutsComeFromTheModuleWhenTheDriverHasNoParamInfo) {
  for (const std::string mode : {"linked", "dlsym"})
    expect_every_launch(mode, fake_cuda_12_3_dir());
  const auto c = capture("--kernel '*scale_bias*'", "linked", fake_cuda_12_3_dir());
  EXPECT_NE(c.run.err.find("layouts come from the module images"), std::string::npos) << c.run.err;
}

// A driver that has them but refuses them (CUDA_ERROR_NOT_SUPPORTED) is as one without them.
TEST(CaptureE2E, ParamLayoutsComeFromTheModuleWhenTheDriverRefusesParamInfo) {
  for (const std::string mode : {"linked", "dlsym"})
    expect_every_launch(mode, fake_cuda_dir(), "FAKE_CUDA_PARAM_INFO=unsupported");
}

TEST(CaptureE2E, MaxBytesCutsTheMemoryAndTheRecordSaysSo) {
  const auto plain = run_plain("linked");
  const auto c = capture("--kernel '_Z5saxpy*' --max-bytes 1024", "linked");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  EXPECT_EQ(c.run.out, plain.out);
  ASSERT_EQ(folders(c.out), std::set<std::string>{saxpy_folder + "1"}) << c.run.err;
  const fs::path folder = c.out / (saxpy_folder + "1");
  const json rec = record(folder);
  EXPECT_EQ(rec["complete"], false);
  EXPECT_FALSE(rec["incomplete"].empty());
  EXPECT_NE(c.run.err.find("incomplete"), std::string::npos) << c.run.err;
  std::uint64_t saved = 0;
  for (const auto& m : rec["memory"]) {
    SCOPED_TRACE(m.dump());
    saved += m["saved"].get<std::uint64_t>();
    EXPECT_LT(m["saved"].get<std::uint64_t>(), m["size"].get<std::uint64_t>());
    EXPECT_EQ(saved_bytes(folder / m["before"].get<std::string>()).size(), m["saved"]);
    EXPECT_EQ(saved_bytes(folder / m["after"].get<std::string>()).size(), m["saved"]);
  }
  EXPECT_GT(saved, 0u);
  EXPECT_LE(saved, 1024u);
  // x's pointer is at its allocation's base: what was saved of it is its beginning.
  const Reached x = reached(rec, 2);
  ASSERT_TRUE(x.memory.is_object());
  auto want = bytes_of(x_values(n));
  want.resize(x.memory["saved"].get<std::size_t>());
  EXPECT_EQ(saved_bytes(folder / x.memory["before"].get<std::string>()), want);
}

TEST(CaptureE2E, ManagedMemoryIsReportedIncomplete) {
  const auto c = capture("--kernel '_Z5saxpy*'", "linked --managed");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  const json rec = record(c.out / (saxpy_folder + "1"));
  EXPECT_EQ(rec["complete"], false);
  const Reached y = reached(rec, 3);
  EXPECT_EQ(y.memory["kind"], "managed");
  bool said = false;
  for (const auto& why : rec["incomplete"])
    said = said || (why.get<std::string>().find(y.memory["name"].get<std::string>()) == 0 &&
                    why.get<std::string>().find("cuMemAllocManaged") != std::string::npos);
  EXPECT_TRUE(said) << rec["incomplete"];
  // x is device memory, and complete.
  expect_memory(c.out / (saxpy_folder + "1"), reached(rec, 2), x_values(n), x_values(n));
}

TEST(CaptureE2E, NoMatchingLaunchIsExitOneAndTheProgramStillRuns) {
  const auto plain = run_plain("linked");
  const auto c = capture("--kernel 'no_such_kernel*'", "linked");
  EXPECT_EQ(c.run.exit_code, 1) << c.run.err;
  EXPECT_EQ(c.run.out, plain.out);
  EXPECT_TRUE(folders(c.out).empty());
  EXPECT_NE(c.run.err.find("no launch"), std::string::npos) << c.run.err;
}

} // namespace
} // namespace gpurun::test
