#include "pipeline/run_parameters.hpp"

#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "pipeline/spec.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {
namespace fs = std::filesystem;

RunRequest from_spec(const std::string& text) {
  const fs::path path = gpurun::test::temp_dir() / "spec.json";
  std::ofstream(path) << text;
  return read_spec(path);
}

GivenFlags flags(std::initializer_list<std::pair<const char*, std::vector<std::string>>> given) {
  GivenFlags out;
  for (const auto& [name, texts] : given)
    out.add(run_parameter(name), texts);
  return out;
}

std::string flag_error(const char* name, std::vector<std::string> texts) {
  try {
    (void)read_flag_value(run_parameter(name), texts);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << name << " took what it should refuse";
  return {};
}

TEST(RunParameters, EachNameFlagAndSpecKeyOnce) {
  std::set<std::string_view> names, keys, flag_names;
  for (const RunParameter& p : run_parameters()) {
    SCOPED_TRACE(std::string(p.name));
    EXPECT_TRUE(names.insert(p.name).second);
    EXPECT_NE(p.store, nullptr);
    EXPECT_FALSE(p.help.empty());
    if (!p.spec_key.empty())
      EXPECT_TRUE(keys.insert(p.spec_key).second);
    std::string_view rest = p.flags;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      EXPECT_TRUE(flag_names.insert(rest.substr(0, comma)).second) << rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    // Without a flag or a spec key a parameter could not be given at all.
    EXPECT_TRUE(!p.flags.empty() || !p.spec_key.empty());
    // A switch a spec may hold (exact) reads true or false there; the others are the command
    // line's alone.
    if (p.type == ParameterType::flag && p.name != "exact")
      EXPECT_TRUE(p.spec_key.empty());
  }
}

TEST(RunParameters, BackendSettingsAreTheDeviceSettings) {
  // Every backend setting lands in RunRequest::device_settings and nowhere else.
  for (const RunParameter& p : run_parameters()) {
    if (!p.backend_setting)
      continue;
    SCOPED_TRACE(std::string(p.name));
    RunRequest request;
    const RunRequest before = request;
    store(request, p, read_flag_value(p, {p.type == ParameterType::flag ? "" : "7"}));
    const auto& s = request.device_settings;
    const bool changed = s.memcheck || s.racecheck || s.initcheck || s.synccheck || s.leak_check ||
                         s.stats || s.host_threads != 0 || s.heap_bytes || s.max_findings ||
                         s.printf_buffer || !s.cpu_engine.empty();
    EXPECT_TRUE(changed);
    EXPECT_EQ(request.source, before.source);
    EXPECT_EQ(request.repeat, before.repeat);
  }
}

TEST(RunParameters, SpecKeysComeFromTheTable) {
  const auto top = spec_keys();
  for (const char* key :
       {"source", "kernel", "compile", "grid", "block", "shared_bytes", "args", "globals", "expect",
        "rtol", "atol", "print", "repeat", "timeout", "backend", "device", "save", "description"})
    EXPECT_NE(std::find(top.begin(), top.end(), key), top.end()) << key;
  EXPECT_EQ(spec_keys("compile"), (std::vector<std::string_view>{"defines", "include_dirs", "std",
                                                                 "arch", "options", "compiler"}));
}

TEST(RunParameters, FlagsOverrideTheSpec) {
  RunRequest file = from_spec(R"json({
    "source": "k.cu", "kernel": "a", "grid": [2], "block": [32], "args": ["1", "2"],
    "compile": {"defines": ["A"], "arch": "sm_80"}, "rtol": 0.1, "print": "all"})json");
  const fs::path spec_dir = file.base_dir;
  GivenFlags given = flags({{"kernel", {"b"}},
                            {"block", {"64"}},
                            {"args", {"3"}},
                            {"defines", {"B"}},
                            {"arch", {"sm_90"}},
                            {"compiler", {"clang"}},
                            {"rtol", {"0.5"}},
                            {"memcheck", {}}});
  given.base_dir = "/work/cwd";
  apply_flags(file, given);
  EXPECT_EQ(file.kernel, "b");
  EXPECT_EQ(file.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(file.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(file.args, std::vector<std::string>{"3"});
  EXPECT_EQ(file.compile.defines, (std::vector<std::string>{"A", "B"})); // -D adds
  EXPECT_EQ(file.compile.arch, "sm_90");
  EXPECT_EQ(file.compile.compiler, "clang");
  EXPECT_DOUBLE_EQ(file.rtol, 0.5);
  EXPECT_EQ(file.print, "all");
  EXPECT_TRUE(file.device_settings.memcheck);
  EXPECT_EQ(file.source, spec_dir / "k.cu");
  EXPECT_EQ(file.base_dir, fs::path("/work/cwd"));
}

TEST(RunParameters, NoFlagsLeaveTheSpec) {
  RunRequest file = from_spec(R"json({
    "source": "k.cu", "kernel": "a", "grid": [2], "block": [32], "args": ["1"],
    "compile": {"defines": ["A"], "std": "c++17"}, "repeat": 3, "print": "all"})json");
  const RunRequest before = file;
  apply_flags(file, GivenFlags{});
  EXPECT_EQ(file.kernel, before.kernel);
  EXPECT_EQ(file.grid, before.grid);
  EXPECT_EQ(file.args, before.args);
  EXPECT_EQ(file.compile.defines, before.compile.defines);
  EXPECT_EQ(file.compile.std_version, "c++17");
  EXPECT_EQ(file.repeat, 3);
  EXPECT_EQ(file.print, "all");
  EXPECT_EQ(file.base_dir, before.base_dir);
}

// A flag and its spec key reach the same field with the same value.
TEST(RunParameters, FlagAndSpecKeyAgree) {
  struct Case {
    const char* name;
    const char* flag_text;
    const char* spec;
  };
  for (const Case& c :
       {Case{"grid", "4,2", R"({"grid": [4, 2]})"},
        Case{"shared_bytes", "1<<10", R"({"shared_bytes": "1<<10"})"},
        Case{"repeat", "5", R"({"repeat": 5})"}, Case{"timeout", "2.5", R"({"timeout": 2.5})"},
        Case{"std", "c++20", R"({"compile": {"std": "c++20"}})"},
        Case{"compiler", "auto", R"({"compile": {"compiler": "auto"}})"},
        Case{"device", "3", R"({"device": 3})"}}) {
    SCOPED_TRACE(c.name);
    RunRequest by_flag;
    apply_flags(by_flag, flags({{c.name, {c.flag_text}}}));
    const RunRequest by_spec = from_spec(c.spec);
    EXPECT_EQ(by_flag.grid, by_spec.grid);
    EXPECT_EQ(by_flag.shared_bytes, by_spec.shared_bytes);
    EXPECT_EQ(by_flag.repeat, by_spec.repeat);
    EXPECT_EQ(by_flag.timeout_s, by_spec.timeout_s);
    EXPECT_EQ(by_flag.compile.std_version, by_spec.compile.std_version);
    EXPECT_EQ(by_flag.compile.compiler, by_spec.compile.compiler);
    EXPECT_EQ(by_flag.device, by_spec.device);
  }
}

TEST(RunParameters, BadFlagValuesNameTheFlag) {
  EXPECT_EQ(flag_error("shared_bytes", {"-4"}), "--shared '-4': must be ≥ 0");
  EXPECT_EQ(flag_error("repeat", {"2000000000"}),
            "--repeat '2000000000': must be between 1 and 1000000000");
  EXPECT_EQ(flag_error("rtol", {"-1"}), "--rtol -1: must be a number ≥ 0");
  EXPECT_EQ(flag_error("rtol", {"x"}), "--rtol 'x': must be a number");
  EXPECT_EQ(flag_error("compiler", {"gcc"}),
            "--compiler 'gcc': expected auto, nvrtc, clang or nvcc");
  EXPECT_EQ(flag_error("expect", {"=1"}), "--expect '=1': expected NAME=VALUES");
  EXPECT_NE(flag_error("grid", {"0"}).find("--grid"), std::string::npos);
}

TEST(RunParameters, ALongWatchdogMeansNone) {
  RunRequest r;
  apply_flags(r, flags({{"timeout", {"1e9"}}}));
  EXPECT_FALSE(r.timeout_s.has_value());
}

} // namespace
} // namespace gpurun
