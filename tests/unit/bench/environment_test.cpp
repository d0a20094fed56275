#include "bench/environment.hpp"

#include <map>

#include <gtest/gtest.h>

namespace gpurun::bench {
namespace {

TEST(Environment, ThisHostIsDescribed) {
  const Environment env = host_environment();
  const std::map<std::string, std::string> by_name(env.begin(), env.end());
  EXPECT_EQ(by_name.at("gpurun_version"), GPURUN_VERSION);
  EXPECT_TRUE(by_name.at("build_type").starts_with("release") ||
              by_name.at("build_type").starts_with("debug"));
  EXPECT_NE(by_name.at("cpu"), "");
  EXPECT_GE(std::stoi(by_name.at("cpus")), 1);
  EXPECT_TRUE(by_name.at("os").starts_with("Linux ")) << by_name.at("os");
}

TEST(Environment, DifferencesAreSettingsBothHaveWithOtherValues) {
  const Environment base{{"power_limit_w", "700"}, {"ecc", "enabled"}, {"cpu", "EPYC"}};
  const Environment fresh{{"ecc", "disabled"}, {"power_limit_w", "700"}, {"mig", "enabled"}};
  EXPECT_EQ(environment_differences(base, fresh),
            (std::vector<std::string>{"ecc: enabled in the baseline, disabled in the new file"}));
  EXPECT_TRUE(environment_differences(base, base).empty());
  EXPECT_TRUE(environment_differences({}, fresh).empty());
}

} // namespace
} // namespace gpurun::bench
