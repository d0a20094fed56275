#pragma once
// Captures what the process writes to one of its file descriptors. The CUDA driver writes device
// printf text straight to file descriptor 1, past every C++ stream, so a report that owns
// standard output (--json) can only take that text by pointing the descriptor elsewhere for a
// while. The text goes to an anonymous in-memory file rather than a pipe: output of any size is
// kept, and the writer never blocks waiting for a reader.
#include <string>

namespace gpurun::kit {

class FdCapture {
public:
  /// Flushes C stdio (what was buffered belongs to the old destination), then points `fd` at a
  /// fresh in-memory file. Throws Error(device) when no such file can be made.
  explicit FdCapture(int fd);
  /// Points `fd` back where it was when finish() was not called; the text is dropped. Never
  /// throws.
  ~FdCapture();
  FdCapture(const FdCapture&) = delete;
  FdCapture& operator=(const FdCapture&) = delete;

  /// Flushes C stdio, points `fd` back where it was and returns everything written to it since
  /// the constructor, in order. A second call returns an empty string.
  [[nodiscard]] std::string finish();

private:
  void restore() noexcept;

  int m_fd;
  int m_saved = -1; ///< the original destination (-1: `fd` was closed)
  int m_file = -1;  ///< the in-memory file (-1 once finished)
};

} // namespace gpurun::kit
