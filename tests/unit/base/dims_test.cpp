#include "base/dims.hpp"

#include <string>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

std::string dims_error(const std::string& text) {
  try {
    (void)parse_dims(text, "--grid");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

TEST(Dims, MissingDimensionsAreOne) {
  EXPECT_EQ(parse_dims("2,2", "--grid"), (Dim3{2, 2, 1}));
  EXPECT_EQ(parse_dims("7", "--grid"), (Dim3{7, 1, 1}));
  EXPECT_EQ(parse_dims("2,3,4", "--grid"), (Dim3{2, 3, 4}));
  EXPECT_EQ(parse_dims("2,3,4", "--grid").volume(), 24u);
}

TEST(Dims, ComponentsAreExpressions) {
  EXPECT_EQ(parse_dims("1<<10, 32 / 4", "--block"), (Dim3{1024, 8, 1}));
  EXPECT_EQ(parse_dims("(1<<20)/256", "--grid"), (Dim3{4096, 1, 1}));
  EXPECT_EQ(parse_dims("4294967295", "--grid").x, 4294967295u);
}

TEST(Dims, ToString) {
  EXPECT_EQ(to_string(Dim3{4, 2, 1}), "(4,2,1)");
}

TEST(Dims, RejectsZeroNegativeAndTooLarge) {
  EXPECT_EQ(dims_error("0,1"), "--grid '0,1': x = 0 must be between 1 and 4294967295");
  EXPECT_EQ(dims_error("1,-2"), "--grid '1,-2': y = -2 must be between 1 and 4294967295");
  EXPECT_EQ(dims_error("1,1,2**32"),
            "--grid '1,1,2**32': z = 4294967296 must be between 1 and 4294967295");
}

TEST(Dims, RejectsMalformedText) {
  EXPECT_EQ(dims_error("1,2,3,4"),
            "--grid '1,2,3,4': at most 3 dimensions (X[,Y[,Z]]) allowed; extra ',' at position 6");
  EXPECT_EQ(dims_error("2,,3"), "--grid '2,,3': expected a number at position 3");
  EXPECT_EQ(dims_error("2,"), "--grid '2,': expected a number at position 3");
  EXPECT_EQ(dims_error("2x2"), "--grid '2x2': unexpected 'x' at position 2");
  EXPECT_EQ(dims_error(""), "--grid '': expected a number at position 1");
}

} // namespace
} // namespace gpurun
