// Finding nvcc: the places in their documented order on a fake tree, the version nvcc prints, and
// the reasons given for a program that is missing or is not nvcc.
#include "backends/compilers/nvcc_locate.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "support/test_support.hpp"

namespace gpurun::nvcc {
namespace {

namespace fs = std::filesystem;

/// Files under a temporary folder, the variables the test sets and nothing else.
class FakeMachine {
public:
  FakeMachine() : m_dir(test::temp_dir()) {}

  /// An executable script at `relative` that prints `version_output` for --version.
  std::string program(const std::string& relative, const std::string& version_output = "") {
    const auto path = m_dir / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "#!/bin/sh\nprintf '%s\\n' '" << version_output << "'\n";
    fs::permissions(path, fs::perms::owner_all);
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

constexpr const char* cuda_13_version = "nvcc: NVIDIA (R) Cuda compiler driver\n"
                                        "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                                        "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
                                        "Cuda compilation tools, release 13.0, V13.0.88\n"
                                        "Build cuda_13.0.r13.0/compiler.36424714_0\n";

TEST(NvccLocate, VersionFromVersionOutput) {
  EXPECT_EQ(parse_nvcc_version(cuda_13_version), "13.0.88");
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 11.2, V11.2.152"), "11.2.152");
  EXPECT_EQ(parse_nvcc_version("Cuda compilation tools, release 10.1"), "10.1");
  EXPECT_FALSE(parse_nvcc_version("clang version 14.0.6"));
  EXPECT_FALSE(parse_nvcc_version(""));
}

TEST(NvccLocate, EveryPlaceInTheDocumentedOrder) {
  FakeMachine m;
  const auto home = m.program("home/bin/nvcc");
  const auto path = m.program("path/bin/nvcc");
  const auto link = m.program("root/usr/local/cuda/bin/nvcc");
  const auto v12 = m.program("root/usr/local/cuda-12.4/bin/nvcc");
  const auto v13 = m.program("root/usr/local/cuda-13.0/bin/nvcc");
  m.program("root/usr/local/cuda-11.8/bin/ptxas"); // a toolkit without nvcc is skipped
  m.set("CUDA_HOME", m.path("home"));
  m.set("CUDA_PATH", m.path("path"));
  const auto search = locate_nvcc(m.env());
  EXPECT_EQ(search.candidates, (std::vector<std::string>{home, path, link, v13, v12, "nvcc"}));
  EXPECT_EQ(search.places, (std::vector<std::string>{"$CUDA_HOME/bin", "$CUDA_PATH/bin",
                                                     "/usr/local/cuda*/bin", "PATH"}));
  EXPECT_FALSE(search.exclusive);
}

TEST(NvccLocate, BareMachineTriesPathOnly) {
  FakeMachine m;
  const auto search = locate_nvcc(m.env());
  EXPECT_EQ(search.candidates, std::vector<std::string>{"nvcc"});
}

TEST(NvccLocate, GpurunNvccIsTheOnlyCandidate) {
  FakeMachine m;
  m.program("root/usr/local/cuda/bin/nvcc");
  m.set("GPURUN_NVCC", "/opt/cuda/bin/nvcc");
  const auto search = locate_nvcc(m.env());
  EXPECT_EQ(search.candidates, std::vector<std::string>{"/opt/cuda/bin/nvcc"});
  EXPECT_TRUE(search.exclusive);
}

TEST(NvccLocate, FirstProgramThatSaysItIsNvccIsTaken) {
  FakeMachine m;
  const auto impostor = m.program("a/nvcc", "gcc (Debian 12.2.0) 12.2.0");
  const auto real = m.program("b/nvcc", cuda_13_version);
  Search search;
  search.candidates = {impostor, real};
  const auto found = probe_installation(search);
  ASSERT_TRUE(found.availability.available) << found.availability.reason;
  EXPECT_EQ(found.availability.version, "13.0.88");
  EXPECT_EQ(found.availability.location, real);
}

TEST(NvccLocate, GpurunNvccThatIsNotNvccSaysWhatItIs) {
  FakeMachine m;
  m.set("GPURUN_NVCC", m.program("fake-nvcc", "gcc (Debian 12.2.0) 12.2.0"));
  const auto found = probe_installation(locate_nvcc(m.env()));
  EXPECT_FALSE(found.availability.available);
  EXPECT_NE(found.availability.reason.find("GPURUN_NVCC: "), std::string::npos)
      << found.availability.reason;
  EXPECT_NE(found.availability.reason.find("does not say it is nvcc ('gcc (Debian"),
            std::string::npos)
      << found.availability.reason;
}

TEST(NvccLocate, GpurunNvccThatDoesNotExistSaysSo) {
  FakeMachine m;
  m.set("GPURUN_NVCC", "/no/such/nvcc");
  const auto found = probe_installation(locate_nvcc(m.env()));
  EXPECT_FALSE(found.availability.available);
  EXPECT_EQ(found.availability.reason, "GPURUN_NVCC=/no/such/nvcc: no such program");
}

TEST(NvccLocate, NotFoundNamesThePlacesSearched) {
  Search search;
  search.candidates = {"gpurun-no-such-nvcc"};
  search.places = {"$CUDA_HOME/bin", "/usr/local/cuda*/bin", "PATH"};
  const auto found = probe_installation(search);
  EXPECT_FALSE(found.availability.available);
  EXPECT_EQ(found.availability.reason, "nvcc not found (looked in $CUDA_HOME/bin, "
                                       "/usr/local/cuda*/bin, PATH; GPURUN_NVCC names it)");
}

} // namespace
} // namespace gpurun::nvcc
