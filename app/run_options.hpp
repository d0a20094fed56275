#pragma once
// The run options shared by `run` (and later `bench`): CLI11 bindings and their translation into
// a RunRequest, merged over a JSON spec when one is given (flags override the file).
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/run_request.hpp"

namespace gpurun {

struct RunOptions {
  std::string file;
  std::string junit_file; ///< --junit: each --expect a JUnit test case
  std::string spec;
  std::string kernel;
  std::string grid;
  std::string block;
  std::string shared;
  std::vector<std::string> args;
  std::vector<std::string> globals;
  std::vector<std::string> defines;
  std::vector<std::string> include_dirs;
  std::string std_version;
  std::string arch;
  std::vector<std::string> opts;
  std::string compiler;
  std::string print;
  std::string save_dir;
  std::vector<std::string> expects;
  double rtol = 0;
  double atol = 0;
  int repeat = 1;
  double timeout_s = 0;
  std::string backend = "auto";
  int device = 0;
  int cpu_threads = 0;
  std::optional<std::size_t> printf_buffer;
  bool json = false;
  bool verbose =
      false; ///< -v: the compiler, what of a whole file it got, a compile error's whole log
  bool no_cache = false;
  bool memcheck = false;
  bool racecheck = false;
  bool initcheck = false;
  bool synccheck = false;
  bool leak_check = false;
  std::optional<std::size_t> heap_size;
  std::optional<std::size_t> max_findings;
  bool stats = false;
  bool quiet = false;
};

void add_run_options(CLI::App& cmd, RunOptions& options);

/// Builds the request: the spec file (FILE.json or --spec) first, then every flag that was given.
[[nodiscard]] RunRequest make_run_request(const CLI::App& cmd, const RunOptions& options);

} // namespace gpurun
