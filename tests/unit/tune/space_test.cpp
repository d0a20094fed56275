#include "tune/space.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "bench/axes.hpp"
#include "support/test_support.hpp"

namespace gpurun::tune {
namespace {

std::vector<bench::Axis> axes(std::initializer_list<const char*> texts) {
  std::vector<bench::Axis> out;
  for (const char* t : texts)
    out.push_back(bench::parse_axis(t, "-p"));
  return out;
}

TEST(TuneSpace, RestrictionsKeepOnlyTheConfigurationsThatMeetThem) {
  const Space s(axes({"TILE=[8,16,32]", "BX=[32,64,128]"}), {"TILE*BX <= 1024", "BX != 64"});
  EXPECT_EQ(s.unrestricted_size(), 9u);
  // 8·32, 8·128, 16·32 (16·128 = 2048 and 32·128 are out; BX 64 never).
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s.key(0), "8,32");
  EXPECT_EQ(s.key(1), "8,128");
  EXPECT_EQ(s.key(2), "16,32");
  EXPECT_EQ(s.key(3), "32,32");
  EXPECT_EQ(s.describe(2), "TILE=16, BX=32");
  EXPECT_EQ(s.find_key("16,32"), 2u);
  EXPECT_FALSE(s.find_key("16,64"));
  EXPECT_EQ(s.find({2, 0}), 3u);
  EXPECT_FALSE(s.find({1, 1})); // restricted
}

TEST(TuneSpace, PythonsLogicWordsReadAsOperators) {
  const Space s(axes({"A=[1,2,3]", "B=[1,2]"}), {"A > 1 and !(B == 2) or A == 1 and B == 2"});
  // (A>1 && B!=2) || (A==1 && B==2): 2,1 · 3,1 · 1,2.
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.key(0), "1,2");
  EXPECT_EQ(s.key(1), "2,1");
  EXPECT_EQ(s.key(2), "3,1");
  EXPECT_NE(test::usage_message([] { (void)Space(axes({"A=[1,2]"}), {"not A == 1"}); })
                .find("write Python's 'not' as !("),
            std::string::npos);
}

TEST(TuneSpace, StringParametersCannotBeRestrictedButAreTuned) {
  const Space s(axes({"T=[float,double]", "N=[1,2]"}), {"N > 1"});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.point(1), (bench::AxisPoint{{"T", "double"}, {"N", "2"}}));
  const auto message =
      test::usage_message([] { (void)Space(axes({"T=[float,double]"}), {"T > 1"}); });
  EXPECT_NE(message.find("--restrict 'T > 1': 'T' is a parameter with non-integer values"),
            std::string::npos)
      << message;
  const auto unknown = test::usage_message([] { (void)Space(axes({"A=[1,2]"}), {"Q > 1"}); });
  EXPECT_NE(unknown.find("'Q' is not a parameter"), std::string::npos) << unknown;
}

TEST(TuneSpace, BadParametersAreUsageErrors) {
  EXPECT_NE(test::usage_message([] { (void)Space({}, {}); }).find("no parameter"),
            std::string::npos);
  EXPECT_NE(test::usage_message([] { (void)Space(axes({"A=[1,2]", "A=[3]"}), {}); })
                .find("given twice"),
            std::string::npos);
  EXPECT_NE(test::usage_message([] { (void)Space(axes({"A=[1,1]"}), {}); })
                .find("the value 1 is given twice"),
            std::string::npos);
  // 10^8 points: refused before any is enumerated.
  EXPECT_NE(test::usage_message([] {
              (void)Space(axes({"A=[1:10000]", "B=[1:10000]"}), {});
            }).find("more than"),
            std::string::npos);
}

} // namespace
} // namespace gpurun::tune
