#include "pipeline/spec.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/read_file.hpp"
#include "pipeline/signature.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {
namespace fs = std::filesystem;

fs::path write_spec(const std::string& text, const std::string& name = "spec.json") {
  const fs::path dir = gpurun::test::temp_dir();
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string spec_error(const std::string& text) {
  const fs::path path = write_spec(text);
  try {
    (void)read_spec(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path.string() + ": ", 0), 0u) << "names the file: " << msg;
    return msg.substr(path.string().size() + 2);
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(Spec, BundledScalarAddExample) {
  const fs::path path = gpurun::test::source_dir() / "kernels" / "examples" / "scalar_add.json";
  RunRequest r = read_spec(path);
  EXPECT_EQ(r.source, fs::absolute(path).parent_path() / "scalar_add.cu");
  EXPECT_EQ(r.kernel, "scalar_add");
  EXPECT_EQ(r.grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(r.block, (Dim3{20, 1, 1}));
  EXPECT_EQ(r.args, (std::vector<std::string>{"vector=f32[20]:iota", "size=20", "scalar=20.0"}));
  EXPECT_EQ(r.expects, (std::vector<std::string>{"vector=f32[20]:iota(20,1)"}));
  EXPECT_EQ(r.base_dir, fs::absolute(path).parent_path());
}

// Every bundled spec reads into a runnable request: its source exists and declares the kernel, and
// the spec gives the launch shape and one argument per kernel parameter.
TEST(Spec, EveryBundledExampleReads) {
  int read = 0;
  for (const auto& e :
       fs::directory_iterator(gpurun::test::source_dir() / "kernels" / "examples")) {
    if (e.path().extension() != ".json")
      continue;
    SCOPED_TRACE(e.path().string());
    RunRequest r;
    ASSERT_NO_THROW(r = read_spec(e.path()));
    EXPECT_TRUE(r.grid.has_value());
    EXPECT_TRUE(r.block.has_value());
    const auto source = read_file(r.source);
    ASSERT_TRUE(source.has_value()) << r.source;
    ASSERT_TRUE(r.kernel.has_value());
    const auto kernels = find_kernels(*source);
    EXPECT_EQ(select_kernel(kernels, *r.kernel).params.size(), r.args.size());
    ++read;
  }
  EXPECT_GE(read, 6); // scalar_add, vector_add, saxpy, reduce_sum, polynomial, print_threads
}

TEST(Spec, AllKeys) {
  const fs::path path = write_spec(R"json({
    "description": "every key",
    "source": "k.cu",
    "kernel": "saxpy<float>",
    "compile": {"defines": ["N=4", "DEBUG"], "include_dirs": ["inc", "/abs/inc"],
                "std": "c++17", "arch": "sm_90", "options": ["-use_fast_math"],
                "compiler": "clang"},
    "grid": "2,3",
    "block": 128,
    "shared_bytes": "1<<10",
    "args": ["a=2.0",
             {"name": "x", "type": "f32", "shape": [20], "fill": "iota"},
             {"name": "m", "type": "u8", "shape": [2, 3], "fill": [1, 2, 3, 4, 5, 6]},
             {"name": "n", "value": 20, "type": "i32"},
             {"value": 1.5},
             "d=f32[4]:@data.bin"],
    "globals": ["coefficients=f32[4]:[1, 2, 3, 4]", {"name": "g", "type": "u32", "shape": [1]}],
    "expect": {"x": "@ref.npy", "y": [1, 2.5, "nan"], "z": "f32[20]:iota(1,2)"},
    "rtol": 0.001, "atol": 0,
    "print": ["x", "y"],
    "repeat": 5,
    "timeout": 2.5,
    "backend": "cpu",
    "device": 1,
    "save": "out"
  })json");
  const fs::path dir = path.parent_path();
  RunRequest r = read_spec(path);
  EXPECT_EQ(r.source, dir / "k.cu");
  EXPECT_EQ(r.kernel, "saxpy<float>");
  EXPECT_EQ(r.compile.defines, (std::vector<std::string>{"N=4", "DEBUG"}));
  EXPECT_EQ(r.compile.include_dirs, (std::vector<std::string>{(dir / "inc").string(), "/abs/inc"}));
  EXPECT_EQ(r.compile.std_version, "c++17");
  EXPECT_EQ(r.compile.arch, "sm_90");
  EXPECT_EQ(r.compile.extra, std::vector<std::string>{"-use_fast_math"});
  EXPECT_EQ(r.compile.compiler, "clang");
  EXPECT_EQ(r.grid, (Dim3{2, 3, 1}));
  EXPECT_EQ(r.block, (Dim3{128, 1, 1}));
  EXPECT_EQ(r.shared_bytes, 1024u);
  EXPECT_EQ(r.args, (std::vector<std::string>{"a=2.0", "x=f32[20]:iota",
                                              "m=u8[2,3]:[1, 2, 3, 4, 5, 6]", "n=i32:20", "1.5",
                                              "d=f32[4]:@" + (dir / "data.bin").string()}));
  EXPECT_EQ(r.globals, (std::vector<std::string>{"coefficients=f32[4]:[1, 2, 3, 4]", "g=u32[1]"}));
  EXPECT_EQ(r.expects, (std::vector<std::string>{"x=@" + (dir / "ref.npy").string(),
                                                 "y=[1, 2.5, nan]", "z=f32[20]:iota(1,2)"}));
  EXPECT_DOUBLE_EQ(r.rtol, 0.001);
  EXPECT_DOUBLE_EQ(r.atol, 0);
  EXPECT_EQ(r.print, "x,y");
  EXPECT_EQ(r.repeat, 5);
  EXPECT_EQ(r.timeout_s, 2.5);
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.device, 1);
  EXPECT_EQ(r.save_dir, dir / "out");
}

TEST(Spec, DimsForms) {
  auto dims = [](const std::string& v) {
    return read_spec(write_spec("{\"grid\": " + v + "}")).grid.value();
  };
  EXPECT_EQ(dims("[4]"), (Dim3{4, 1, 1}));
  EXPECT_EQ(dims("[4, 2, 3]"), (Dim3{4, 2, 3}));
  EXPECT_EQ(dims("7"), (Dim3{7, 1, 1}));
  EXPECT_EQ(dims("\"1<<4,2\""), (Dim3{16, 2, 1}));
  EXPECT_EQ(dims("[\"2*8\", 1]"), (Dim3{16, 1, 1}));
}

TEST(Spec, ABufferObjectPlacedOnADevice) {
  RunRequest r = read_spec(write_spec(
      R"json({"args": [{"name": "x", "type": "f32", "shape": [4], "device": 1, "fill": "iota"}]})json"));
  ASSERT_EQ(r.args.size(), 1u);
  EXPECT_EQ(r.args[0], "x=f32[4]@1:iota");
  try {
    (void)read_spec(
        write_spec(R"json({"args": [{"type": "f32", "shape": [4], "device": -1}]})json"));
    ADD_FAILURE() << "a negative device is an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("args[0].device"), std::string::npos) << e.what();
  }
}

TEST(Spec, DefinesAsAnObject) {
  RunRequest r = read_spec(
      write_spec(R"json({"compile": {"defines": {"N": 4, "NAME": "x", "FLAG": null}}})json"));
  EXPECT_EQ(r.compile.defines, (std::vector<std::string>{"FLAG", "N=4", "NAME=x"}));
}

TEST(Spec, UnknownKeysAreNamedWithASuggestion) {
  EXPECT_EQ(spec_error(R"json({"gird": [1]})json"), "unknown key 'gird' (did you mean 'grid'?)");
  EXPECT_EQ(spec_error(R"json({"compile": {"define": ["A"]}})json"),
            "unknown key 'compile.define' (did you mean 'defines'?)");
  EXPECT_EQ(spec_error(R"json({"zzzzzzz": 1})json"), "unknown key 'zzzzzzz'");
  EXPECT_EQ(spec_error(
                R"json({"args": [{"name": "x", "type": "f32", "shape": [2], "fil": "iota"}]})json"),
            "unknown key 'args[0].fil' (did you mean 'fill'?)");
}

TEST(Spec, WrongTypesNameTheKeyAndTheExpectedType) {
  EXPECT_EQ(spec_error(R"json({"kernel": 3})json"), "'kernel' must be a string, not an integer");
  EXPECT_EQ(spec_error(R"json({"args": "x=1"})json"), "'args' must be an array, not a string");
  EXPECT_EQ(spec_error(R"json({"args": [1]})json"),
            "'args[0]' must be a string (--arg grammar) or an object, not an integer");
  EXPECT_EQ(spec_error(R"json({"rtol": "small"})json"), "'rtol' must be a number, not a string");
  EXPECT_EQ(spec_error(R"json({"rtol": -1})json"), "'rtol' must be ≥ 0");
  EXPECT_EQ(spec_error(R"json({"repeat": 0})json"), "'repeat' must be between 1 and 1000000000");
  EXPECT_EQ(spec_error(R"json({"grid": {"x": 1}})json"),
            "'grid' must be an array of 1 to 3 integers, a string \"X,Y,Z\" or an integer, not "
            "an object");
  EXPECT_EQ(spec_error(R"json({"grid": [1, 2.5]})json"),
            "'grid[1]' must be an integer, not a number");
  EXPECT_EQ(spec_error(R"json({"compile": {"defines": [1]}})json"),
            "'compile.defines[0]' must be a string, not an integer");
  EXPECT_EQ(spec_error(R"json({"expect": {"y": true}})json"),
            "'expect.y' must be a string (\"@ref.npy\", \"f32[20]:iota\") or an array of numbers, "
            "not a boolean");
  EXPECT_EQ(spec_error(R"json({"globals": [{"type": "f32", "shape": [1]}]})json"),
            "'globals[0]' needs a \"name\"");
  EXPECT_EQ(spec_error(R"json({"args": [{"name": "x", "shape": [1]}]})json"),
            "'args[0]' needs a \"type\" (f32, i32, …) or a \"value\"");
  EXPECT_EQ(spec_error("[1, 2]"), "a run spec is a JSON object");
}

TEST(Spec, InvalidJsonIsAUsageError) {
  std::string msg = spec_error("{\"grid\": [1,\n}");
  EXPECT_EQ(msg.rfind("invalid JSON: parse error at line 2", 0), 0u) << msg;
}

// A number beyond a double is nlohmann's out_of_range, not its parse_error: it once escaped as an
// exception that was not a gpurun::Error.
TEST(Spec, NumberBeyondADoubleIsInvalidJson) {
  EXPECT_EQ(spec_error(R"json({"grid": 1e400})json"),
            "invalid JSON: number overflow parsing '1e400'");
}

TEST(Spec, MissingFileIsAUsageError) {
  try {
    (void)read_spec("/nonexistent/spec.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/spec.json: cannot read the spec file: No such file or directory");
  }
}

TEST(Spec, CompilerChoice) {
  EXPECT_EQ(read_spec(write_spec(R"json({"compile": {"compiler": "auto"}})json")).compile.compiler,
            "");
  EXPECT_EQ(read_spec(write_spec(R"json({"compile": {"compiler": "nvrtc"}})json")).compile.compiler,
            "nvrtc");
  EXPECT_EQ(compiler_choice("clang", "--compiler"), "clang");
  EXPECT_EQ(compiler_choice("auto", "--compiler"), "");
  EXPECT_EQ(compiler_choice("nvcc", "--compiler"), "nvcc");
  try {
    (void)compiler_choice("gcc", "--compiler");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), "--compiler 'gcc': expected auto, nvrtc, clang or nvcc");
  }
  EXPECT_NE(spec_error(R"json({"compile": {"compiler": "gcc"}})json")
                .find("compile.compiler 'gcc': expected auto, nvrtc, clang or nvcc"),
            std::string::npos);
  EXPECT_EQ(spec_error(R"json({"compile": {"compiler": 1}})json"),
            "'compile.compiler' must be a string, not an integer");
}

} // namespace
} // namespace gpurun
