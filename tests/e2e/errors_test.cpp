// End-to-end: bad input gets one clear line naming the culprit and the documented exit code, and
// leaves no file behind.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

struct BadInput {
  std::string args;
  int exit_code;
  std::string culprit; ///< must appear in stderr
};

const std::string seed = "kernels/examples/scalar_add.cu --backend cpu --no-cache ";
const std::string ok_args = "--arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=20.0 ";

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsWithTheDocumentedCodeAndNamesTheCulprit) {
  const BadInput& c = GetParam();
  // Run in a folder of its own that sees the source tree's kernels and test data, so that any
  // file the failed run left behind (a partial output, a temporary) shows.
  const auto work = temp_dir();
  for (const char* name : {"kernels", "tests"})
    std::filesystem::create_directory_symlink(source_dir() / name, work / name);
  auto r = run_gpurun(c.args, work);
  std::vector<std::string> left;
  for (const auto& entry : std::filesystem::directory_iterator(work))
    left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"kernels", "tests"})) << c.args;
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
        // A watchdog limit must be a number of seconds; NaN used to time out at once.
        BadInput{seed + g + ok_args + "--timeout nan", 2, "--timeout nan"},
        BadInput{seed + g + ok_args + "--timeout 0", 2, "--timeout 0: must be"},
        BadInput{seed + g + ok_args + "--timeout -3", 2, "--timeout -3"},
        // Tolerances are checked on the command line as the JSON spec checks them.
        BadInput{seed + g + ok_args + "--expect 'vector=f32[20]:iota(20,1)' --rtol -1", 2,
                 "--rtol -1: must be a number"},
        BadInput{seed + g + ok_args + "--expect 'vector=f32[20]:iota(20,1)' --atol nan", 2,
                 "--atol nan"},
        // rand/randn bounds must be finite (NaN elements used to be the result).
        BadInput{seed + g +
                     "--arg 'vector=f32[20]:rand(seed=7,-inf,inf)' --arg size=20 "
                     "--arg scalar=1",
                 2, "rand needs finite LO and HI"},
        BadInput{seed + g +
                     "--arg 'vector=f32[20]:randn(seed=7,0,nan)' --arg size=20 "
                     "--arg scalar=1",
                 2, "randn needs a finite MEAN and STD"},
        // --metrics: names are checked before anything runs; the CPU backend has no counters.
        BadInput{seed + g + ok_args + "--metrics 'dram__bytes.sum,,x__y.sum'", 2,
                 "--metrics 'dram__bytes.sum,,x__y.sum': empty metric name"},
        BadInput{seed + g + ok_args + "--metrics 'dram bytes'", 2, "--metrics 'dram bytes'"},
        BadInput{seed + g + ok_args + "--metrics list,roofline", 2, "alone"},
        BadInput{seed + g + ok_args + "--metrics dram__bytes.sum", 5,
                 "--metrics: this backend has no hardware counters"},
        BadInput{seed + "--metrics list", 5, "no hardware counters"},
        BadInput{"bench kernels/suites/stream.json --backend cpu --metrics ',,' --list", 2,
                 "--metrics ',,': empty metric name"},
        BadInput{"bench kernels/suites/stream.json --backend cpu -a 'N[pow2]=[10:10]' --filter "
                 "'^copy/' --metrics roofline --min-samples 3 --max-samples 3",
                 5, "no hardware counters"},
        // A buffer the host cannot hold names itself and its size.
        BadInput{seed + g + "--arg 'vector=f32[2**46]' --arg size=20 --arg scalar=1", 2,
                 "buffer 'vector': 281474976710656 bytes do not fit in the host's memory"},
        // Malformed kernel names are usage errors, not compile errors.
        BadInput{"kernels/examples/saxpy.json --backend cpu --kernel 'saxpy<float>('", 2,
                 "--kernel 'saxpy<float>(': nothing may follow the template arguments"},
        BadInput{"kernels/examples/saxpy.json --backend cpu --kernel 'saxpy<float'", 2,
                 "--kernel 'saxpy<float': unbalanced brackets"},
        // --save is checked before the kernel runs.
        BadInput{seed + g + ok_args + "--save /dev/null", 2,
                 "--save /dev/null: exists and is not a folder"},
        BadInput{seed + g + ok_args + "--save kernels/examples/scalar_add.cu", 2,
                 "exists and is not a folder"},
        BadInput{seed + g + ok_args + "--save ''", 2, "--save: needs a folder"},
        // Only regular files are read: /dev/zero never ends, a directory is no data.
        BadInput{seed + g + "--arg 'vector=f32[20]:@/dev/zero' --arg size=20 --arg scalar=1", 2,
                 "/dev/zero: is a character device, not a regular file"},
        BadInput{seed + g + "--arg 'vector=f32[20]:@/tmp' --arg size=20 --arg scalar=1", 2,
                 "/tmp: is a directory"},
        BadInput{seed + g + ok_args + "--expect 'vector=@/dev/urandom'", 2,
                 "cannot read /dev/urandom: is a character device, not a regular file"},
        // Counts are checked with gpurun's words, not CLI11's range with a 309-digit bound.
        BadInput{seed + g + ok_args + "--repeat 0", 2, "--repeat: '0' must be a whole number ≥ 1"},
        BadInput{seed + g + ok_args + "--printf-buffer -3", 2,
                 "--printf-buffer: '-3' must be a whole number ≥ 1"},
        // A newline in a quoted value is written as \n: the error stays one line.
        BadInput{seed + g +
                     "--arg \"$(printf 'vector=f32[20]:io\\nta')\" --arg size=20 "
                     "--arg scalar=1",
                 2, "io\\nta"},
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

// A watchdog limit too far out to compute a deadline for is no limit, not an instant timeout.
TEST(Watchdog, HugeLimitsMeanNoLimit) {
  for (const char* limit : {"1e308", "inf"}) {
    auto r = run_gpurun(seed + g + ok_args + "--timeout " + limit + " -q");
    EXPECT_EQ(r.exit_code, 0) << limit << ": " << r.err;
  }
}

// A store through a null pointer says so, instead of naming the distance to some allocation.
TEST(MemoryFaults, NullPointerIsNamed) {
  auto r = run_gpurun("tests/data/e2e/null_store.cu --backend cpu --grid 1 --block 1 "
                      "--arg 'slots=u64[1]:0'");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("a null pointer"), std::string::npos) << r.err;
}

// A FIFO as a source, spec or data file would block forever: it is refused at once (exit 2).
TEST(SpecialFiles, FifosAreRefusedNotWaitedOn) {
  const auto dir = temp_dir();
  ASSERT_EQ(run_shell("mkfifo k.cu spec.json data.bin", dir).exit_code, 0);
  auto r = run_gpurun((dir / "k.cu").string() + " --backend cpu --grid 1 --block 1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is a FIFO, not a regular file"), std::string::npos) << r.err;
  r = run_gpurun(seed + g + ok_args + "--spec " + (dir / "spec.json").string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("spec.json: cannot read the spec file: is a FIFO"), std::string::npos)
      << r.err;
  r = run_gpurun(seed + g + "--arg 'vector=f32[20]:@" + (dir / "data.bin").string() +
                 "' --arg size=20 --arg scalar=1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is a FIFO"), std::string::npos) << r.err;
}

TEST(SpecialFiles, ASourceWithANulByteIsNotText) {
  const auto dir = temp_dir();
  {
    std::ofstream out(dir / "k.cu", std::ios::binary);
    const std::string text("extern \"C\" __global__ void k() {}\0junk", 38);
    out << text;
  }
  auto r = run_gpurun((dir / "k.cu").string() + " --backend cpu --grid 1 --block 1");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("not a text file (a NUL byte at offset"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
