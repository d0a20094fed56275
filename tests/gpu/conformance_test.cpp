// Every bundled example runs on CUDA and passes its own --expect checks, and every bundled and
// conformance kernel gives the same bytes on the CUDA and CPU backends (same seeded inputs).
#include <gtest/gtest.h>

#include "base/read_file.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

bool cuda_available() {
  return run_gpurun("devices --check cuda").exit_code == 0;
}

std::vector<std::filesystem::path> specs_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> specs;
  for (const auto& e : std::filesystem::directory_iterator(source_dir() / dir))
    if (e.path().extension() == ".json")
      specs.push_back(e.path());
  std::sort(specs.begin(), specs.end());
  return specs;
}

TEST(GpuExamples, EveryExamplePassesItsChecksOnCuda) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  for (const auto& spec : specs_in("kernels/examples")) {
    auto r = run_gpurun(spec.string() + " --backend cuda --no-cache");
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.out << r.err;
  }
}

TEST(GpuConformance, CudaAndCpuProduceIdenticalBytes) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device";
  auto specs = specs_in("kernels/examples");
  for (const auto& s : specs_in("tests/data/conformance"))
    specs.push_back(s);
  for (const auto& spec : specs) {
    const auto dir = temp_dir();
    const std::string base = spec.string() + " -q --save ";
    ASSERT_EQ(run_gpurun(base + (dir / "cuda").string() + " --backend cuda").exit_code, 0) << spec;
    ASSERT_EQ(run_gpurun(base + (dir / "cpu").string() + " --backend cpu").exit_code, 0) << spec;
    if (!std::filesystem::exists(dir / "cuda"))
      continue; // printf-only kernels save nothing
    for (const auto& e : std::filesystem::directory_iterator(dir / "cuda")) {
      const auto name = e.path().filename();
      // compared as a whole; a failure names the buffer rather than dumping its bytes
      EXPECT_TRUE(read_file(e.path()) == read_file(dir / "cpu" / name))
          << spec.filename() << ": " << name << " differs between cuda and cpu";
    }
  }
}

} // namespace
} // namespace gpurun::test
