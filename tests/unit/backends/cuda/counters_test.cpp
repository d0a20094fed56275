// What of the counters path runs without a GPU: where CUPTI is looked for (as NVRTC is, with the
// toolkit's extras/CUPTI/lib64), what a missing or too old CUPTI says, and the units metrics are
// reported in.
#include "backends/cuda/counters.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "backends/cuda/cupti.hpp"
#include "support/test_support.hpp"

namespace gpurun::cuda {
namespace {

namespace fs = std::filesystem;

TEST(MetricUnit, FollowsTheSuffixes) {
  EXPECT_EQ(metric_unit("dram__bytes.sum", "byte"), "byte");
  EXPECT_EQ(metric_unit("dram__bytes.sum.per_second", "byte"), "byte/second");
  EXPECT_EQ(metric_unit("dram__bytes.sum.peak_sustained", "byte"), "byte/cycle");
  EXPECT_EQ(metric_unit("sm__throughput.avg.pct_of_peak_sustained_elapsed", ""), "%");
  EXPECT_EQ(metric_unit("sm__warps_active.avg.pct_of_peak_sustained_active", "warp"), "%");
  EXPECT_EQ(metric_unit("smsp__average_warp_latency_per_inst_issued.ratio", "cycle"), "");
  EXPECT_EQ(metric_unit("sm__cycles_elapsed.avg.per_second", "cycle"), "cycle/second");
  EXPECT_EQ(metric_unit("gpu__time_duration.sum", "nsecond"), "nsecond");
  EXPECT_EQ(metric_unit("smsp__inst_executed.sum.per_cycle_active", "inst"), "inst/cycle");
}

class CuptiLocate : public ::testing::Test {
protected:
  std::string touch(const std::string& relative) {
    const auto path = m_dir / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path).put('\0');
    return path.string();
  }
  nvrtc::LocateEnv env() const {
    nvrtc::LocateEnv e = nvrtc::LocateEnv::system();
    e.variable = [vars = m_vars](const std::string& name) {
      const auto it = vars.find(name);
      return it == vars.end() ? std::string() : it->second;
    };
    e.root = (m_dir / "root").string();
    return e;
  }
  fs::path m_dir = test::temp_dir();
  std::map<std::string, std::string> m_vars;
};

TEST_F(CuptiLocate, ToolkitFoldersExtrasAndTheLoaderInOrder) {
  const auto home = touch("home/extras/CUPTI/lib64/libcupti.so.12");
  m_vars["CUDA_HOME"] = (m_dir / "home").string();
  const auto usr_local = touch("root/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcupti.so.13");
  touch("root/usr/local/cuda-13.0/targets/x86_64-linux/lib/libnvrtc.so.13");
  const auto search = nvrtc::locate(env(), cupti_library());
  const std::vector<std::string> expected{home, "libcupti.so.13", "libcupti.so.12", "libcupti.so",
                                          usr_local};
  EXPECT_EQ(std::vector<std::string>(search.candidates.begin(),
                                     search.candidates.begin() + 5),
            expected);
  for (const auto& c : search.candidates)
    EXPECT_EQ(c.find("nvrtc"), std::string::npos) << c;
}

TEST_F(CuptiLocate, ExactLibraryVariable) {
  m_vars["GPURUN_CUPTI_LIBRARY"] = "/x/libcupti.so.13";
  const auto search = nvrtc::locate(env(), cupti_library());
  EXPECT_EQ(search.candidates, std::vector<std::string>{"/x/libcupti.so.13"});
  EXPECT_EQ(search.places, std::vector<std::string>{"$GPURUN_CUPTI_LIBRARY"});
}

TEST(CuptiLoad, NothingFoundSaysWhereItLooked) {
  nvrtc::Search search;
  search.candidates = {"/nonexistent/libcupti.so.13"};
  search.places = {"$CUDA_HOME", "the loader path"};
  const Cupti c = load_cupti(search);
  EXPECT_FALSE(c.handle);
  EXPECT_NE(c.error.find("libcupti not found"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("$CUDA_HOME, the loader path"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("GPURUN_CUPTI_LIBRARY"), std::string::npos) << c.error;
}

TEST(CuptiLoad, ALibraryWithoutTheRangeProfilerIsNamed) {
  // libm opens but exports no CUPTI entry point: it stands for a CUPTI older than 12.6.
  nvrtc::Search search;
  search.candidates = {"libm.so.6"};
  const Cupti c = load_cupti(search);
  EXPECT_FALSE(c.handle);
  EXPECT_NE(c.error.find("lacks cuptiGetResultString"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("12.6"), std::string::npos) << c.error;
}

} // namespace
} // namespace gpurun::cuda
