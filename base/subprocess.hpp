#pragma once
// Runs a program without a shell and captures what it prints: compilers that are executables
// (clang) rather than libraries are driven through this.
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace gpurun::proc {

/// How a child process ended.
struct Finished {
  bool started = false; ///< false when the program could not be executed at all
  int exit_code = -1;   ///< the exit status; -1 when it was killed by a signal or never started
  int signal = 0;       ///< the signal that killed it (0 when it exited)
  std::string output;   ///< stdout and stderr interleaved, as a terminal would show them
  std::string error;    ///< why it could not be started ("clang-19: No such file or directory")
};

/// Runs `argv` (argv[0] is looked up on PATH when it has no '/'), stdin from /dev/null, and waits
/// for it. Arguments are passed as they are: no shell, no quoting, no globbing.
[[nodiscard]] Finished run(std::span<const std::string> argv);

/// The first executable named `name` on PATH (or `name` itself when it contains a '/' and is
/// executable); std::nullopt when there is none.
[[nodiscard]] std::optional<std::filesystem::path> find_program(const std::string& name);

/// A folder under the system temp directory, removed with its contents on destruction.
class TempDir {
public:
  /// Creates "<tmp>/<prefix>XXXXXX"; throws std::system_error when it cannot.
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

private:
  std::filesystem::path m_path;
};

} // namespace gpurun::proc
