#include "base/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/signal_cleanup.hpp"

namespace gpurun {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what) {
  throw usage_error(
      fmt::format("{}: cannot write the file: {} ({})", path.string(), what, std::strerror(errno)));
}

/// A temporary file next to the target, removed unless the write got as far as the rename: on an
/// error by the destructor, on SIGINT, SIGTERM or SIGHUP by the signal handler.
class TempFile {
public:
  /// Creates ".NAME.tmp-XXXXXX" in `dir` with the permissions a plain open would give (0666 less
  /// the umask); see created().
  TempFile(const std::filesystem::path& dir, std::string_view name) {
    static constexpr std::string_view k_letters =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string suffix(6, ' ');
      for (char& c : suffix)
        c = k_letters[random() % k_letters.size()];
      m_path = dir / fmt::format(".{}.tmp-{}", name, suffix);
      // Registered before it exists, so that no signal finds it created but unregistered.
      m_guard.emplace(m_path);
      m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (m_fd >= 0 || errno != EEXIST)
        break;
    }
    if (m_fd < 0) {
      const int error = errno;
      m_guard.reset();
      errno = error;
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (m_fd < 0)
      return;
    ::close(m_fd);
    if (!m_committed)
      ::unlink(m_path.c_str());
  }
  /// Whether the file was created (errno says why not).
  [[nodiscard]] bool created() const { return m_fd >= 0; }
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  [[nodiscard]] int fd() const { return m_fd; }
  /// After the rename: the temporary name is gone, and no signal should remove what it names.
  void commit() {
    m_committed = true;
    m_guard.reset();
  }

private:
  std::filesystem::path m_path;
  int m_fd = -1;
  std::optional<RemoveOnSignal> m_guard;
  bool m_committed = false;
};

/// Writes all of `bytes` to `fd`; false (errno set) when a write fails.
bool write_all(int fd, std::span<const std::byte> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// Whether `st` is the file that `fd` has open.
bool is_open_as(const struct stat& st, int fd) {
  struct stat open {};
  return ::fstat(fd, &open) == 0 && open.st_dev == st.st_dev && open.st_ino == st.st_ino;
}

/// Through the stdio stream, after what the command printed to it before.
void write_stream(std::FILE* stream, std::string_view name, std::span<const std::byte> bytes) {
  errno = 0;
  const std::size_t written = std::fwrite(bytes.data(), 1, bytes.size(), stream);
  if (std::fflush(stream) == 0 && written == bytes.size() && !std::ferror(stream))
    return;
  const int error = errno;
  // Reported here, once: main's check of standard output at exit should not report it again.
  std::clearerr(stream);
  throw usage_error(fmt::format("{}: cannot write: {}", name,
                                error != 0 ? std::strerror(error) : "a write failed"));
}

/// A device or a FIFO: opened and written as it is, never replaced by a regular file.
void write_through(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    fail(path, "cannot open it");
  if (!write_all(fd, bytes)) {
    const int error = errno;
    ::close(fd);
    errno = error;
    fail(path, "write failed");
  }
  if (::close(fd) != 0)
    fail(path, "close failed");
}

/// A regular file or a new one: a temporary file renamed over `target`.
void replace(const std::filesystem::path& target, const std::filesystem::path& path,
             std::span<const std::byte> bytes) {
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  // ".NAME.tmp-XXXXXX" must fit NAME_MAX (255 bytes) where NAME alone nearly fills it: cut NAME.
  const std::string name = target.filename().string().substr(0, 255 - std::strlen("..tmp-XXXXXX"));
  TempFile temp(dir, name);
  if (!temp.created())
    fail(path, "cannot create a temporary file next to it");
  if (!write_all(temp.fd(), bytes))
    fail(path, "write failed");
  if (::fsync(temp.fd()) != 0)
    fail(path, "fsync failed");
  if (::rename(temp.path().c_str(), target.c_str()) != 0)
    fail(path, "rename failed");
  temp.commit();
  // Make the rename itself durable; failing here loses nothing already visible, so ignore it.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

} // namespace

void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  if (path == "-") {
    write_stream(stdout, "standard output", bytes);
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    replace(path, path, bytes); // a new file (or an error that the write names)
    return;
  }
  if (is_open_as(st, STDOUT_FILENO)) {
    write_stream(stdout, "standard output", bytes);
    return;
  }
  if (is_open_as(st, STDERR_FILENO)) {
    std::fflush(stdout);
    write_stream(stderr, "standard error", bytes);
    return;
  }
  if (S_ISDIR(st.st_mode))
    throw usage_error(fmt::format("{}: cannot write the file: it is a folder", path.string()));
  if (!S_ISREG(st.st_mode)) {
    write_through(path, bytes);
    return;
  }
  // A symbolic link stays: the file it names is replaced.
  struct stat link {};
  std::error_code ec;
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    if (const auto target = std::filesystem::canonical(path, ec); !ec) {
      replace(target, path, bytes);
      return;
    }
  replace(path, path, bytes);
}

bool writes_to_standard_output(const std::filesystem::path& path) {
  struct stat st {};
  return path == "-" || (::stat(path.c_str(), &st) == 0 && is_open_as(st, STDOUT_FILENO));
}

void write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
}

} // namespace gpurun
