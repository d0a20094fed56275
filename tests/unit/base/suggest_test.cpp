#include "base/suggest.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("grid", "grid"), 0u);
  EXPECT_EQ(edit_distance("grdi", "grid"), 1u); // one swap
  EXPECT_EQ(edit_distance("gri", "grid"), 1u);
  EXPECT_EQ(edit_distance("grit", "grid"), 1u);
  EXPECT_EQ(edit_distance("devcies", "devices"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(Closest, SuggestsOnlyWhatIsNear) {
  const std::vector<std::string> commands = {"run", "bench", "devices", "compile"};
  EXPECT_EQ(closest("devcies", commands), "devices");
  EXPECT_EQ(closest("benhc", commands), "bench");
  EXPECT_EQ(closest("rn", commands), std::nullopt) << "too short to guess";
  EXPECT_EQ(closest("rnu", commands), "run");
  EXPECT_EQ(closest("xyz", commands), std::nullopt);
  EXPECT_EQ(closest("run", commands), std::nullopt) << "an exact match is no suggestion";
  EXPECT_EQ(did_you_mean("compiel", commands), " (did you mean 'compile'?)");
  EXPECT_EQ(did_you_mean("zzzzzz", commands), "");
}

} // namespace
} // namespace gpurun
