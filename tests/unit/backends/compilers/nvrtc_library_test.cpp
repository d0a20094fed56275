// Loading NVRTC from the candidates discovery produced: a real libnvrtc through a fake wheel
// layout, and the reasons given when nothing usable is found.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/compilers/nvrtc_api.hpp"
#include "support/test_support.hpp"

namespace gpurun::nvrtc {
namespace {

namespace fs = std::filesystem;

// Only the variables a test sets; the real file system.
LocateEnv env_with(std::string name, std::string value) {
  LocateEnv env = LocateEnv::system();
  env.variable = [name = std::move(name), value = std::move(value)](const std::string& asked) {
    return asked == name ? value : std::string();
  };
  return env;
}

TEST(NvrtcLibrary, LoadsFromAWheelLayoutNamedByGpurunNvrtcPath) {
  const fs::path toolkit = "/usr/local/cuda";
  std::error_code ec;
  if (!fs::exists(toolkit / "lib64/libnvrtc.so.13", ec))
    GTEST_SKIP() << "no CUDA 13 NVRTC at " << toolkit << " to link the fake wheel to";
  // site-packages/nvidia/cu13/{lib,include}, as the CUDA 13 wheels install them.
  const auto site = test::temp_dir() / "site-packages";
  const auto package = site / "nvidia" / "cu13";
  fs::create_directories(package / "lib");
  fs::create_symlink(toolkit / "lib64/libnvrtc.so.13", package / "lib/libnvrtc.so.13");
  const bool headers = fs::exists(toolkit / "include/cuda_runtime.h", ec);
  if (headers)
    fs::create_directory_symlink(toolkit / "include", package / "include");

  const auto env = env_with("GPURUN_NVRTC_PATH", site.string());
  const auto search = locate(env);
  ASSERT_FALSE(search.candidates.empty());
  const auto wheel_lib = (package / "lib/libnvrtc.so.13").string();
  EXPECT_EQ(search.candidates.front(), wheel_lib);

  const Library lib = load(search, env);
  ASSERT_TRUE(lib.availability.available) << lib.availability.reason;
  // The location is the file that was loaded: the wheel's, not the toolkit's it links to.
  EXPECT_EQ(lib.availability.location, wheel_lib);
  EXPECT_EQ(lib.major, 13);
  EXPECT_EQ(lib.availability.version.rfind("13.", 0), 0u) << lib.availability.version;
  EXPECT_NE(lib.api.compile_program, nullptr);
  // No builtins beside the wheel's link: those beside the file it links to.
  EXPECT_EQ(fs::path(lib.builtins).parent_path(),
            fs::canonical(toolkit / "lib64/libnvrtc.so.13").parent_path());
  if (headers) {
    ASSERT_FALSE(lib.include_dirs.empty());
    EXPECT_EQ(lib.include_dirs.front(), (package / "include").string());
  }
}

TEST(NvrtcLibrary, BuiltinsComeFromBesideTheLibraryInUse) {
  const auto& lib = library();
  if (!lib.availability.available)
    GTEST_SKIP() << "NVRTC unavailable: " << lib.availability.reason;
  ASSERT_FALSE(lib.builtins.empty());
  EXPECT_EQ(fs::path(lib.builtins).filename().string(),
            builtins_file_name(lib.availability.location, lib.major, lib.minor));
  std::error_code ec;
  EXPECT_TRUE(fs::exists(lib.builtins, ec)) << lib.builtins;
  const auto beside =
      fs::path(lib.availability.location).parent_path() / fs::path(lib.builtins).filename();
  if (fs::exists(beside, ec))
    EXPECT_EQ(lib.builtins, beside.string());
  EXPECT_TRUE(lib.builtins_handle);
}

TEST(NvrtcLibrary, BuiltinsFoundNowhereNameTheFileAndWhereTheyWereLookedFor) {
  // No NVRTC 99.9 exists: its builtins are neither beside the library nor on the loader path.
  const auto dir = test::temp_dir();
  const auto library = (dir / "libnvrtc.so.99").string();
  const auto opened = open_builtins(library, 99, 9);
  EXPECT_FALSE(opened.handle);
  EXPECT_EQ(opened.error, library +
                              " needs libnvrtc-builtins.so.99.9, which is neither beside it nor "
                              "on the loader path");
}

TEST(NvrtcLibrary, BuiltinsThatDoNotLoadSayWhy) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "libnvrtc-builtins.so.99.9") << "not a library";
  const auto opened = open_builtins((dir / "libnvrtc.so.99").string(), 99, 9);
  EXPECT_FALSE(opened.handle);
  EXPECT_NE(opened.error.find((dir / "libnvrtc-builtins.so.99.9").string() + ": "),
            std::string::npos)
      << opened.error;
}

TEST(NvrtcLibrary, ExactLibraryThatDoesNotLoadSaysSo) {
  const auto env = env_with("GPURUN_NVRTC_LIBRARY", "/nonexistent");
  const Library lib = load(locate(env), env);
  EXPECT_FALSE(lib.availability.available);
  EXPECT_EQ(lib.availability.reason.rfind("GPURUN_NVRTC_LIBRARY: /nonexistent", 0), 0u)
      << lib.availability.reason;
  EXPECT_EQ(lib.availability.reason.find('\n'), std::string::npos);
  EXPECT_EQ(lib.api.version, nullptr);
}

TEST(NvrtcLibrary, WhatALoadFoundIsKeptUntilTheFilesChange) {
  const auto dir = test::temp_dir();
  const auto file = dir / "libnvrtc.so.13";
  std::ofstream(file) << "not a library";
  const char* saved = std::getenv("GPURUN_CACHE_DIR");
  const std::string previous = saved != nullptr ? saved : "";
  ::setenv("GPURUN_CACHE_DIR", (dir / "cache").c_str(), 1);
  Search search;
  search.candidates = {file.string()};
  search.exclusive = true;
  int loads = 0;
  Library found;
  found.availability.available = true;
  found.availability.version = "13.0";
  found.availability.location = file.string();
  found.builtins = (dir / "libnvrtc-builtins.so.13.0").string();
  const auto load_now = [&]() -> const Library& {
    ++loads;
    return found;
  };
  Probed p = probe_with_memo(search, load_now);
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(p.availability.version, "13.0");
  p = probe_with_memo(search, load_now); // the same files: nothing is loaded
  EXPECT_EQ(loads, 1);
  EXPECT_TRUE(p.availability.available);
  EXPECT_EQ(p.availability.location, file.string());
  EXPECT_EQ(p.builtins, found.builtins);
  std::ofstream(file) << "another library, longer"; // a new toolkit in the same place
  found.availability.version = "13.1";
  p = probe_with_memo(search, load_now);
  EXPECT_EQ(loads, 2);
  EXPECT_EQ(p.availability.version, "13.1");
  // A load that found nothing is not kept: the next run looks again.
  std::ofstream(file) << "x";
  found.availability = {};
  (void)probe_with_memo(search, load_now);
  (void)probe_with_memo(search, load_now);
  EXPECT_EQ(loads, 4);
  if (saved != nullptr)
    ::setenv("GPURUN_CACHE_DIR", previous.c_str(), 1);
  else
    ::unsetenv("GPURUN_CACHE_DIR");
}

TEST(NvrtcLibrary, NotFoundNamesThePlacesSearched) {
  Search search;
  search.candidates = {"libgpurun-no-nvrtc.so.99"};
  search.places = {"$CUDA_HOME", "the loader path"};
  const Library lib = load(search, LocateEnv::system());
  EXPECT_FALSE(lib.availability.available);
  EXPECT_EQ(lib.availability.reason,
            "NVRTC not found (looked in $CUDA_HOME, the loader path; GPURUN_NVRTC_PATH adds "
            "folders)");
}

TEST(NvrtcLibrary, LibraryWithoutTheEntryPointsIsNotUsedAndNamed) {
  // libm loads but is not NVRTC: it is skipped with a reason, not taken.
  const std::array<std::string, 1> names{"libm.so.6"};
  const auto libm = dl::open_first(names);
  ASSERT_TRUE(libm.handle) << libm.error;
  const auto libm_file = dl::file_of(libm.handle.get());
  ASSERT_FALSE(libm_file.empty());
  Search search;
  search.candidates = {libm_file};
  search.places = {"$GPURUN_NVRTC_PATH"};
  const Library lib = load(search, LocateEnv::system());
  EXPECT_FALSE(lib.availability.available);
  EXPECT_NE(lib.availability.reason.find(libm_file + " lacks nvrtcGetErrorString"),
            std::string::npos)
      << lib.availability.reason;
  EXPECT_NE(lib.availability.reason.find("$GPURUN_NVRTC_PATH"), std::string::npos);
}

} // namespace
} // namespace gpurun::nvrtc
