// End-to-end: bad input gets one clear line naming the culprit and the documented exit code.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

struct BadInput {
  const char* args;
  int exit_code;
  const char* culprit; ///< must appear in stderr
};

const std::string seed = "kernels/examples/scalar_add.cu --backend cpu --no-cache ";
const std::string ok_args = "--arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=20.0 ";

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsWithTheDocumentedCodeAndNamesTheCulprit) {
  const BadInput& c = GetParam();
  auto r = run_gpurun(c.args);
  EXPECT_EQ(r.exit_code, c.exit_code) << c.args << "\nstdout: " << r.out << "\nstderr: " << r.err;
  EXPECT_NE(r.err.find(c.culprit), std::string::npos)
      << c.args << "\nstderr: " << r.err << "\nexpected to mention: " << c.culprit;
  EXPECT_EQ(r.err.rfind("gpurun: error: ", 0), 0u) << r.err;
  // One line; a compile error is followed by the compiler's log.
  if (c.exit_code != 3) {
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

const std::string g = "--grid 1 --block 20 ";

INSTANTIATE_TEST_SUITE_P(
    Cli, BadInputTest,
    ::testing::Values(
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f33[20]:iota' --arg size=20 --arg scalar=1",
                 2, "f33"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[2x]:iota' --arg size=20 --arg scalar=1",
                 2, "2x"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:bogus' --arg size=20 --arg scalar=1",
                 2, "bogus"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:@/nonexistent/x.npy' --arg size=20 --arg scalar=1",
                 2, "/nonexistent/x.npy"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20",
                 2, "scalar_add"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg 'size=i32[4]' --arg scalar=1",
                 2, "size"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=3' --arg size=20 --arg scalar=1",
                 2, "vector"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f64[20]:iota' --arg size=20 --arg scalar=1",
                 2, "vector"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 2048 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1",
                 2, "--block"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 1,1,128 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1",
                 2, "--block.z = 128 exceeds the device limit 64"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 0 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1",
                 2, "--grid"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --kernel nope --grid 1 --block 20",
                 2, "nope"},
        BadInput{"kernels/examples/missing.cu --backend cpu --grid 1 --block 1", 2, "missing.cu"},
        BadInput{"kernels/examples/scalar_add.cu --backend nosuch --grid 1 --block 1", 2, "nosuch"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1 --shared 1000000",
                 2, "--shared"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1",
                 2, "--grid"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1 --expect 'nothere=[1]'",
                 2, "nothere"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg size=20 --arg scalar=1 --global 'nothere=f32[1]:0'",
                 2, "nothere"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:[1,2,3]' --arg size=20 --arg scalar=1",
                 2, "vector"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg 'size=i32:1<<40' --arg scalar=1",
                 2, "size"},
        BadInput{"kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 20 --arg "
                 "'vector=f32[20]:iota' --arg 'size=i64:20' --arg scalar=1",
                 2, "size"},
        BadInput{
            "tests/data/e2e/compile_error.cu --backend cpu --grid 1 --block 1 --arg 'x=f32[1]'", 3,
            "compile_error.cu"},
        BadInput{"tests/data/e2e/bad_params.ptx --backend cpu --grid 1 --block 1", 3,
                 "bad_params.ptx:10: expected a type in a parameter declaration"},
        BadInput{"tests/data/e2e/oob.cu --backend cpu --grid 1 --block 32 --arg 'x=f32[8]' "
                 "--memcheck",
                 4, "oob"},
        BadInput{"tests/data/e2e/bad_spec.json --backend cpu", 2, "gird"},
        BadInput{"tests/data/e2e/hang.cu --backend cpu --grid 1 --block 1 --arg 'flag=i32[1]:0' "
                 "--timeout 1",
                 124, "--timeout"},
        BadInput{"devices --check hip", 5, "hip"},
        BadInput{"threads --grid 1 --block 0", 2, "--block"}));

} // namespace
} // namespace gpurun::test
