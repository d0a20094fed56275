// NVRTC discovery on fake trees made in a temporary folder: every source in its documented order,
// the wheel layouts, and the toolkit headers that go with the library that was found.
#include "backends/compilers/nvrtc_locate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "support/test_support.hpp"

namespace gpurun::nvrtc {
namespace {

namespace fs = std::filesystem;

#if defined(__aarch64__)
constexpr const char* kTargetLib = "targets/sbsa-linux/lib";
#else
constexpr const char* kTargetLib = "targets/x86_64-linux/lib";
#endif

/// A real file system under a temporary folder, with the variables the test sets and nothing else.
class FakeMachine {
public:
  FakeMachine() : m_dir(test::temp_dir()) {}

  /// An empty file at `relative` (folders made as needed); returns its path.
  std::string touch(const std::string& relative) {
    const auto path = m_dir / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path).put('\0');
    return path.string();
  }
  [[nodiscard]] std::string path(const std::string& relative) const {
    return (m_dir / relative).string();
  }
  void set(const std::string& name, const std::string& value) { m_variables[name] = value; }

  [[nodiscard]] LocateEnv env() const {
    LocateEnv env = LocateEnv::system();
    env.variable = [variables = m_variables](const std::string& name) {
      const auto found = variables.find(name);
      return found != variables.end() ? found->second : std::string();
    };
    env.root = path("root");
    return env;
  }

private:
  fs::path m_dir;
  std::map<std::string, std::string> m_variables;
};

const std::vector<std::string> kLoaderNames = {"libnvrtc.so.13", "libnvrtc.so.12",
                                               "libnvrtc.so.11.2", "libnvrtc.so"};

TEST(NvrtcLocate, EverySourceInTheDocumentedOrder) {
  FakeMachine m;
  // Each source has its own file; the expected list is in the documented order.
  std::vector<std::string> expected;
  expected.push_back(m.touch("named/lib/libnvrtc.so.12"));
  expected.push_back(m.touch("named/toolkit/lib64/libnvrtc.so.13"));
  expected.push_back(m.touch("named/site/nvidia/cu13/lib/libnvrtc.so.13"));
  m.set("GPURUN_NVRTC_PATH",
        m.path("named/lib") + ":" + m.path("named/toolkit") + "::" + m.path("named/site"));
  expected.push_back(m.touch("cuda_home/lib64/libnvrtc.so.12"));
  m.set("CUDA_HOME", m.path("cuda_home"));
  expected.push_back(m.touch(std::string("cuda_path/") + kTargetLib + "/libnvrtc.so.12"));
  m.set("CUDA_PATH", m.path("cuda_path"));
  expected.push_back(m.touch("conda/lib/libnvrtc.so.12"));
  m.set("CONDA_PREFIX", m.path("conda"));
  expected.insert(expected.end(), kLoaderNames.begin(), kLoaderNames.end());
  expected.push_back(m.touch("root/usr/local/cuda/lib64/libnvrtc.so.13"));
  expected.push_back(m.touch("root/usr/local/cuda-13.0/lib/libnvrtc.so.13"));
  expected.push_back(m.touch("root/usr/local/cuda-12.10/lib64/libnvrtc.so.12"));
  expected.push_back(m.touch("root/usr/local/cuda-12.4/lib64/libnvrtc.so.12"));
  expected.push_back(
      m.touch("venv/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"));
  m.set("VIRTUAL_ENV", m.path("venv"));
  expected.push_back(
      m.touch("home/.local/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13"));
  m.set("HOME", m.path("home"));
  expected.push_back(
      m.touch("root/usr/local/lib/python3.11/dist-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"));
  expected.push_back(
      m.touch("root/usr/local/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"));
  expected.push_back(
      m.touch("root/usr/lib/python3/dist-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.11.2"));
  expected.push_back(
      m.touch("conda/lib/python3.10/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"));

  const auto search = locate(m.env());
  EXPECT_EQ(search.candidates, expected);
  EXPECT_FALSE(search.exclusive);
  EXPECT_EQ(search.places,
            (std::vector<std::string>{"$GPURUN_NVRTC_PATH", "$CUDA_HOME", "$CUDA_PATH",
                                      "$CONDA_PREFIX/lib", "the loader path", "/usr/local/cuda*",
                                      "Python site-packages"}));
}

TEST(NvrtcLocate, ExactLibraryIsTheOnlyCandidate) {
  FakeMachine m;
  m.touch("root/usr/local/cuda/lib64/libnvrtc.so.13");
  m.set("CUDA_HOME", m.path("root/usr/local/cuda"));
  m.set("GPURUN_NVRTC_LIBRARY", "/nonexistent");
  const auto search = locate(m.env());
  EXPECT_EQ(search.candidates, std::vector<std::string>{"/nonexistent"});
  EXPECT_TRUE(search.exclusive);
  EXPECT_EQ(search.places, std::vector<std::string>{"$GPURUN_NVRTC_LIBRARY"});
}

TEST(NvrtcLocate, BareMachineTriesTheLoaderOnly) {
  FakeMachine m;
  const auto search = locate(m.env());
  EXPECT_EQ(search.candidates, kLoaderNames);
  EXPECT_EQ(search.places, (std::vector<std::string>{"the loader path", "/usr/local/cuda*",
                                                     "Python site-packages"}));
}

TEST(NvrtcLocate, NewestVersionedToolkitFirst) {
  FakeMachine m;
  for (const char* folder :
       {"cuda-11.8", "cuda-12.4", "cuda-12.10", "cuda-13.0", "cuda-13", "cuda-next", "cuda"})
    m.touch(std::string("root/usr/local/") + folder + "/lib64/libnvrtc.so");
  std::vector<std::string> toolkits;
  for (const auto& candidate : locate(m.env()).candidates)
    if (candidate.find('/') != std::string::npos)
      toolkits.push_back(fs::path(candidate).parent_path().parent_path().filename().string());
  // 12.10 is newer than 12.4; "cuda-next" is no version and is not searched.
  EXPECT_EQ(toolkits, (std::vector<std::string>{"cuda", "cuda-13.0", "cuda-13", "cuda-12.10",
                                                "cuda-12.4", "cuda-11.8"}));
}

TEST(NvrtcLocate, WheelLayoutsOfCuda13And12InSitePackages) {
  FakeMachine m;
  const auto cu13 = m.touch("site/nvidia/cu13/lib/libnvrtc.so.13");
  const auto cu12 = m.touch("site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  m.touch("site/nvidia/cuda_nvrtc/lib/libnvrtc-builtins.so.12.9");
  m.touch("site/nvidia/cublas/lib/libcublas.so.12");
  m.set("GPURUN_NVRTC_PATH", m.path("site"));
  const auto search = locate(m.env());
  ASSERT_GE(search.candidates.size(), 3u);
  EXPECT_EQ(search.candidates[0], cu13);
  EXPECT_EQ(search.candidates[1], cu12);
  EXPECT_EQ(search.candidates[2], kLoaderNames[0]);
}

TEST(NvrtcLocate, FolderNamedTwiceIsSearchedOnce) {
  FakeMachine m;
  const auto lib = m.touch("root/usr/local/cuda/lib64/libnvrtc.so.12");
  m.set("CUDA_HOME", m.path("root/usr/local/cuda"));
  m.set("CUDA_PATH", m.path("root/usr/local/cuda"));
  const auto search = locate(m.env());
  EXPECT_EQ(std::count(search.candidates.begin(), search.candidates.end(), lib), 1);
  EXPECT_EQ(search.candidates.front(), lib);
}

TEST(NvrtcLocate, FileNamesNewestMajorFirstSonameBeforeItsTarget) {
  const std::vector<std::string> entries = {"libnvrtc.so",
                                            "libnvrtc.so.11.2",
                                            "libnvrtc.so.12.4.127",
                                            "libnvrtc.so.13.0.88",
                                            "libnvrtc.so.13",
                                            "libnvrtc.so.12",
                                            "libnvrtc-builtins.so.13.0",
                                            "libnvrtc.alt.so.13",
                                            "libnvrtc_static.a",
                                            "libnvrtc.so.x",
                                            "libnvrtc.so.",
                                            "libnvrtc.so.12.",
                                            "libcuda.so.1"};
  EXPECT_EQ(nvrtc_file_names(entries),
            (std::vector<std::string>{"libnvrtc.so.13", "libnvrtc.so.13.0.88", "libnvrtc.so.12",
                                      "libnvrtc.so.12.4.127", "libnvrtc.so.11.2", "libnvrtc.so"}));
  EXPECT_TRUE(nvrtc_file_names({}).empty());
}

TEST(NvrtcLocate, BuiltinsAreNamedByTheVersionAndTheLibrarysVariant) {
  EXPECT_EQ(builtins_file_name("/usr/local/cuda/lib64/libnvrtc.so.13", 13, 0),
            "libnvrtc-builtins.so.13.0");
  EXPECT_EQ(builtins_file_name("libnvrtc.so.12", 12, 4), "libnvrtc-builtins.so.12.4");
  EXPECT_EQ(builtins_file_name("/usr/lib/x86_64-linux-gnu/libnvrtc.so.11.2", 11, 8),
            "libnvrtc-builtins.so.11.8");
  // CUDA 13's alternative NVRTC has builtins of its own.
  EXPECT_EQ(builtins_file_name("/usr/local/cuda-13.0/lib/libnvrtc.alt.so.13", 13, 0),
            "libnvrtc-builtins.alt.so.13.0");
}

TEST(NvrtcLocate, UsrLocalToolkitsTheLinkFirstThenNewestVersion) {
  FakeMachine m;
  for (const char* folder : {"cuda-12.4", "cuda-13.0", "bin", "cuda-next"})
    m.touch(std::string("root/usr/local/") + folder + "/x");
  EXPECT_EQ(
      usr_local_toolkits(m.env()),
      (std::vector<std::string>{m.path("root/usr/local/cuda"), m.path("root/usr/local/cuda-13.0"),
                                m.path("root/usr/local/cuda-12.4")}));
}

TEST(NvrtcIncludeDirs, ToolkitIncludeAndCcclBesideItsLibFolder) {
  FakeMachine m;
  const auto lib = m.touch("cuda-13.0/lib64/libnvrtc.so.13");
  m.touch("cuda-13.0/include/cuda_runtime.h");
  m.touch("cuda-13.0/include/cccl/cuda/std/cstdint");
  EXPECT_EQ(
      toolkit_include_dirs(lib, m.env()),
      (std::vector<std::string>{m.path("cuda-13.0/include"), m.path("cuda-13.0/include/cccl")}));
  // The per-architecture folder has include/ beside it too.
  const auto target = m.touch(std::string("cuda-12.4/") + kTargetLib + "/libnvrtc.so.12");
  m.touch(std::string("cuda-12.4/") + kTargetLib + "/../include/cuda_runtime.h");
  EXPECT_EQ(toolkit_include_dirs(target, m.env()),
            std::vector<std::string>{
                (fs::path(m.path(std::string("cuda-12.4/") + kTargetLib)).parent_path() / "include")
                    .string()});
}

TEST(NvrtcIncludeDirs, WheelUsesEverySiblingPackageOwnFirst) {
  FakeMachine m;
  const auto lib = m.touch("site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  m.touch("site/nvidia/cuda_nvrtc/include/nvrtc.h");
  m.touch("site/nvidia/cuda_runtime/include/cuda_fp16.h");
  m.touch("site/nvidia/cuda_cccl/include/cuda/std/cstdint");
  m.touch("site/nvidia/cublas/lib/libcublas.so.12"); // no include folder
  EXPECT_EQ(toolkit_include_dirs(lib, m.env()),
            (std::vector<std::string>{m.path("site/nvidia/cuda_nvrtc/include"),
                                      m.path("site/nvidia/cuda_cccl/include"),
                                      m.path("site/nvidia/cuda_runtime/include")}));
}

TEST(NvrtcIncludeDirs, SystemLibraryFolderDoesNotBringSystemHeaders) {
  FakeMachine m;
  // Debian's layout: /usr/lib/x86_64-linux-gnu/libnvrtc.so.11.2, and a library in /usr/lib whose
  // ../include is /usr/include without the toolkit's headers.
  const auto debian = m.touch("usr/lib/x86_64-linux-gnu/libnvrtc.so.11.2");
  const auto usr_lib = m.touch("usr/lib/libnvrtc.so.12");
  m.touch("usr/include/stdio.h");
  EXPECT_TRUE(toolkit_include_dirs(debian, m.env()).empty());
  EXPECT_TRUE(toolkit_include_dirs(usr_lib, m.env()).empty());
  // A bare soname (the loader's answer was not known) gives nothing either.
  EXPECT_TRUE(toolkit_include_dirs("libnvrtc.so.12", m.env()).empty());
}

TEST(NvrtcIncludeDirs, CudaHomeAndCudaPathIncludesComeLast) {
  FakeMachine m;
  const auto lib = m.touch("toolkit/lib64/libnvrtc.so.12");
  m.touch("toolkit/include/cuda_runtime.h");
  m.touch("home/include/cuda_runtime.h");
  m.touch("path/include/cuda_runtime.h");
  m.set("CUDA_HOME", m.path("home"));
  m.set("CUDA_PATH", m.path("path"));
  EXPECT_EQ(toolkit_include_dirs(lib, m.env()),
            (std::vector<std::string>{m.path("toolkit/include"), m.path("home/include"),
                                      m.path("path/include")}));
}

} // namespace
} // namespace gpurun::nvrtc
