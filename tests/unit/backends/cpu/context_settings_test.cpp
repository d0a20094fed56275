#include "backends/cpu/context_settings.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun::cpu {
namespace {

TEST(ContextSettings, DefaultsWhenNothingIsSet) {
  const auto s = ContextSettings::from(ContextOptions{});
  EXPECT_FALSE(s.memcheck);
  EXPECT_FALSE(s.stats);
  EXPECT_EQ(s.threads, 0);
}

TEST(ContextSettings, ReadsItsNamesAndIgnoresOthers) {
  ContextOptions o;
  o.set("memcheck", "1").set("stats", "0").set("threads", "3").set("cuda_graphs", "1");
  const auto s = ContextSettings::from(o);
  EXPECT_TRUE(s.memcheck);
  EXPECT_FALSE(s.stats);
  EXPECT_EQ(s.threads, 3);
}

TEST(ContextSettings, MalformedValuesNameTheSetting) {
  for (const auto& [name, value] :
       {std::pair{"memcheck", "yes"}, std::pair{"threads", "-2"}, std::pair{"threads", "4x"}}) {
    ContextOptions o;
    o.set(name, value);
    try {
      (void)ContextSettings::from(o);
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

} // namespace
} // namespace gpurun::cpu
