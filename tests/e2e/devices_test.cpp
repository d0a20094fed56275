// End-to-end: `gpurun devices` says which backends and CUDA compilers are here, and why not.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

nlohmann::json devices_json(const std::string& env = {}) {
  auto r = run_shell(env + gpurun_bin() + " devices --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(DevicesE2E, ListsTheCudaBackendAvailableOrWithAReason) {
  const auto doc = devices_json();
  bool found = false;
  for (const auto& b : doc.at("backends"))
    if (b.at("name") == "cuda") {
      found = true;
      if (b.at("available") == false) {
        // "libcuda.so.1 not found: …", "no device", "… lacks cuX: the driver is too old", …
        EXPECT_FALSE(b.at("reason").get<std::string>().empty()) << b.dump();
        EXPECT_TRUE(b.at("devices").empty());
      }
    }
  EXPECT_TRUE(found) << doc.dump(2);
}

TEST(DevicesE2E, CompilersSayWhereNvrtcWasFound) {
  const auto compilers = devices_json().at("compilers");
  const auto& nvrtc = compilers.at("nvrtc");
  ASSERT_TRUE(compilers.contains("clang")) << compilers.dump(2);
  if (nvrtc.at("available") == false)
    GTEST_SKIP() << "no NVRTC on this machine: " << nvrtc.at("reason");
  const auto location = nvrtc.at("location").get<std::string>();
  std::error_code ec;
  EXPECT_TRUE(std::filesystem::is_regular_file(location, ec)) << location;
  EXPECT_NE(std::filesystem::path(location).filename().string().find("libnvrtc.so"),
            std::string::npos)
      << location;
  EXPECT_FALSE(nvrtc.at("version").get<std::string>().empty());
  // NVRTC is preferred whenever it is there.
  EXPECT_EQ(compilers.at("selected"), "nvrtc");
}

TEST(DevicesE2E, NvrtcLibraryThatDoesNotExistIsReportedUnavailable) {
  const auto compilers = devices_json("GPURUN_NVRTC_LIBRARY=/nonexistent ").at("compilers");
  const auto& nvrtc = compilers.at("nvrtc");
  EXPECT_EQ(nvrtc.at("available"), false);
  EXPECT_NE(nvrtc.at("reason").get<std::string>().find("/nonexistent"), std::string::npos)
      << nvrtc.dump();
  EXPECT_FALSE(nvrtc.contains("location"));
  EXPECT_NE(compilers.at("selected"), "nvrtc");
}

TEST(DevicesE2E, HumanOutputHasBackendsAndCompilers) {
  auto r = run_shell("GPURUN_NVRTC_LIBRARY=/nonexistent " + gpurun_bin() + " devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu     available"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compilers (CUDA source)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  nvrtc  unavailable: GPURUN_NVRTC_LIBRARY: /nonexistent"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  clang  "), std::string::npos) << r.out;
}

} // namespace
} // namespace gpurun::test
