#pragma once
// Temporary files that a signal must not leave behind. SIGINT, SIGTERM and SIGHUP end gpurun by
// their default action, which runs no destructor; the handler that install_signal_cleanup() sets
// first removes every path a live RemoveOnSignal holds, then raises the signal again with its
// default action, so that the process still ends as the signal says (exit status 128 + N in a
// shell). The registry is a fixed array of path buffers: the handler only reads it and calls
// unlink and rmdir, which are async-signal-safe.
#include <cstddef>
#include <filesystem>

namespace gpurun {

/// Installs the handler for SIGINT, SIGTERM and SIGHUP. A signal the process was started ignoring
/// (nohup's SIGHUP, a background job's SIGINT) stays ignored. Call once, early in main.
void install_signal_cleanup();

/// While alive, `path` is removed if SIGINT, SIGTERM or SIGHUP ends the process: unlinked, or,
/// for a folder, removed with rmdir after the files (so register a folder's files too). At most
/// k_max_paths at once, each shorter than PATH_MAX; a path beyond either is not registered (its
/// owner's destructor still removes it on every other way out).
class RemoveOnSignal {
public:
  static constexpr std::size_t k_max_paths = 16;
  enum class Kind { file, folder };

  explicit RemoveOnSignal(const std::filesystem::path& path, Kind kind = Kind::file);
  ~RemoveOnSignal();
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

  /// Whether the path is in the registry.
  [[nodiscard]] bool registered() const noexcept { return m_slot >= 0; }

private:
  int m_slot = -1;
};

} // namespace gpurun
