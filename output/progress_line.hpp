#pragma once
// Feedback on long runs: one line on stderr that says where a command stands (compiling, block
// 1,204 of 4,096 with an estimate of the time left, a benchmark's samples and noise). Shown only
// when stderr is a terminal and only once the command has run for a second, so short runs and
// piped output print nothing; rewritten in place about ten times a second by its own thread;
// erased before anything else is printed.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gpurun {

class ProgressLine {
public:
  using Status = std::function<std::string()>;

  /// Shows nothing unless `enabled` (callers pass whether the command prints for people:
  /// not --quiet, not --json) and stderr is a terminal.
  explicit ProgressLine(bool enabled,
                        std::chrono::milliseconds delay = std::chrono::milliseconds(1000));
  /// Erases the line.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// What the line says from now on: `status` is called on the line's own thread, so it must
  /// only read what is safe to read while the command runs.
  void show(Status status);
  /// What the line says from now on: fixed text.
  void show(std::string text);
  /// Erases the line and stops it; nothing more is shown.
  void clear();

  /// Whether stderr is a terminal.
  [[nodiscard]] static bool stderr_is_terminal();

private:
  void tick();

  const std::chrono::steady_clock::time_point m_start;
  const std::chrono::milliseconds m_delay;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  Status m_status;
  bool m_stopped = false;
  bool m_shown = false;
  std::thread m_thread;
};

/// A duration that does not flicker on a line rewritten ten times a second: "850 ms", "3.2 s",
/// "41 s", "12 min 5 s".
[[nodiscard]] std::string rough_duration(double seconds);

/// The line's text cut to `columns` terminal columns (an ellipsis marks the cut), UTF-8 aware.
[[nodiscard]] std::string fit_to_columns(const std::string& text, std::size_t columns);

} // namespace gpurun
