#pragma once
// Helpers shared by the test binaries: where things are, running the gpurun binary.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gpurun::test {

/// The built gpurun binary ($GPURUN_BIN or the build's path).
[[nodiscard]] std::string gpurun_bin();
/// The source tree ($GPURUN_SOURCE_DIR or the configure-time path).
[[nodiscard]] std::filesystem::path source_dir();
/// A fresh empty temporary directory, removed at process exit.
[[nodiscard]] std::filesystem::path temp_dir();
/// The whole content of a file (empty when it cannot be read).
[[nodiscard]] std::string slurp(const std::filesystem::path& p);

struct RunResult {
  int exit_code = -1;
  std::string out; ///< stdout
  std::string err; ///< stderr
};

/// Runs `gpurun ARGS` (ARGS is a shell-quoted string) with the working directory `cwd`
/// (default: the source tree). stdin is /dev/null. The job-array variables that shard a benchmark
/// (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) are removed from its environment.
[[nodiscard]] RunResult run_gpurun(const std::string& args, const std::filesystem::path& cwd = {});
/// The message of the usage Error `f` throws; a test failure when it throws none or another code.
[[nodiscard]] std::string usage_message(const std::function<void()>& f);

/// The lines of `text`, sorted (device printf of many threads comes in any order).
[[nodiscard]] std::vector<std::string> sorted_lines(const std::string& text);

/// Runs any shell command.
[[nodiscard]] RunResult run_shell(const std::string& command,
                                  const std::filesystem::path& cwd = {});

} // namespace gpurun::test
