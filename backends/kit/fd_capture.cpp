#include "backends/kit/fd_capture.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun::kit {
namespace {

// An anonymous file: memfd on Linux (no filesystem involved, so a read-only /tmp does not
// matter), else an unlinked temporary file.
int make_anonymous_file() {
#ifdef __linux__
  if (const int fd = ::memfd_create("gpurun-output", MFD_CLOEXEC); fd >= 0)
    return fd;
#endif
  std::error_code ec;
  std::string path = (std::filesystem::temp_directory_path(ec) / "gpurun-output-XXXXXX").string();
  const int fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd >= 0)
    ::unlink(path.c_str());
  return fd;
}

[[noreturn]] void fail(const char* call, int error) {
  throw device_error(
      fmt::format("cannot capture device output: {}: {}", call, std::strerror(error)));
}

} // namespace

FdCapture::FdCapture(int fd) : m_fd(fd) {
  std::fflush(nullptr);
  m_file = make_anonymous_file();
  if (m_file < 0)
    fail("memfd_create", errno);
  m_saved = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (m_saved < 0 && errno != EBADF) {
    const int error = errno;
    ::close(m_file);
    fail("fcntl(F_DUPFD)", error);
  }
  if (::dup2(m_file, fd) < 0) {
    const int error = errno;
    ::close(m_file);
    if (m_saved >= 0)
      ::close(m_saved);
    fail("dup2", error);
  }
}

FdCapture::~FdCapture() {
  if (m_file < 0)
    return;
  std::fflush(nullptr);
  restore();
  ::close(m_file);
}

void FdCapture::restore() noexcept {
  if (m_saved >= 0) {
    while (::dup2(m_saved, m_fd) < 0 && errno == EINTR) {
    }
    ::close(m_saved);
    m_saved = -1;
  } else {
    ::close(m_fd);
  }
}

std::string FdCapture::finish() {
  if (m_file < 0)
    return {};
  std::fflush(nullptr);
  restore();
  // Everything was written through `fd`, which shared the file's offset; read from the start.
  std::string text;
  char chunk[1 << 16];
  for (off_t offset = 0;;) {
    const ssize_t n = ::pread(m_file, chunk, sizeof chunk, offset);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    text.append(chunk, static_cast<std::size_t>(n));
    offset += n;
  }
  ::close(m_file);
  m_file = -1;
  return text;
}

} // namespace gpurun::kit
