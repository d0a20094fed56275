#include "base/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {

/// Removes the temporary file unless the write got as far as the rename.
class TempFile {
public:
  TempFile(std::string path, int fd) : m_path(std::move(path)), m_fd(fd) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (m_fd >= 0)
      ::close(m_fd);
    if (!m_committed)
      ::unlink(m_path.c_str());
  }
  [[nodiscard]] const std::string& path() const { return m_path; }
  void commit() { m_committed = true; }

private:
  std::string m_path;
  int m_fd = -1;
  bool m_committed = false;
};

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what) {
  throw usage_error(
      fmt::format("{}: cannot write the file: {} ({})", path.string(), what, std::strerror(errno)));
}

/// The process umask, read without changing it (umask(2) can only set it, which would race with
/// other threads creating files).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 022;
}

} // namespace

void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  // ".NAME.tmp-XXXXXX" must fit NAME_MAX (255 bytes) where NAME alone nearly fills it: cut NAME.
  const std::string name = path.filename().string().substr(0, 255 - std::strlen("..tmp-XXXXXX"));
  std::string pattern = (dir / ("." + name + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    fail(path, "cannot create a temporary file next to it");
  TempFile temp(pattern, fd);
  // mkstemp creates the file 0600; give it the permissions a plain open would (0666 & ~umask).
  ::fchmod(fd, 0666 & ~current_umask());
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail(path, "write failed");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0)
    fail(path, "fsync failed");
  if (::rename(temp.path().c_str(), path.c_str()) != 0)
    fail(path, "rename failed");
  temp.commit();
  // Make the rename itself durable; failing here loses nothing already visible, so ignore it.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

} // namespace gpurun
