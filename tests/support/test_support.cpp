#include "support/test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun::test {

std::string gpurun_bin() {
  if (const char* env = std::getenv("GPURUN_BIN"); env && *env)
    return env;
#ifdef GPURUN_TEST_BIN
  return GPURUN_TEST_BIN;
#else
  return "gpurun";
#endif
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::filesystem::path source_dir() {
  if (const char* env = std::getenv("GPURUN_SOURCE_DIR"); env && *env)
    return env;
#ifdef GPURUN_TEST_SOURCE_DIR
  return GPURUN_TEST_SOURCE_DIR;
#else
  return std::filesystem::current_path();
#endif
}

namespace {
struct TempRoot {
  std::filesystem::path path;
  TempRoot() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() /
           ("gpurun-test-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempRoot() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}
} // namespace

std::filesystem::path temp_dir() {
  static TempRoot root;
  static int counter = 0;
  auto dir = root.path / std::to_string(counter++);
  std::filesystem::create_directories(dir);
  return dir;
}

RunResult run_shell(const std::string& command, const std::filesystem::path& cwd) {
  auto dir = temp_dir();
  auto out = dir / "stdout";
  auto err = dir / "stderr";
  auto where = cwd.empty() ? source_dir() : cwd;
  std::string full = "cd " + quote(where.string()) + " && " + command + " </dev/null >" +
                     quote(out.string()) + " 2>" + quote(err.string());
  int status = std::system(full.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

RunResult run_gpurun(const std::string& args, const std::filesystem::path& cwd) {
  // Tests that run inside a job array (Slurm, an indexed Kubernetes Job) must not have their
  // benchmarks sharded by it.
  return run_shell("env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX " + quote(gpurun_bin()) +
                       " " + args,
                   cwd);
}

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "expected a usage error";
  return {};
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

} // namespace gpurun::test
