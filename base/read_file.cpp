#include "base/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <new>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "base/format.hpp"

namespace gpurun {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode))
    return "is a directory";
  if (S_ISFIFO(mode))
    return "is a FIFO, not a regular file";
  if (S_ISCHR(mode))
    return "is a character device, not a regular file";
  if (S_ISBLK(mode))
    return "is a block device, not a regular file";
  if (S_ISSOCK(mode))
    return "is a socket, not a regular file";
  return "is not a regular file";
}

class Fd {
public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0)
      ::close(m_fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const { return m_fd; }

private:
  int m_fd;
};

} // namespace

std::optional<std::string> read_file(const std::filesystem::path& path, std::string* why,
                                     std::uint64_t max_bytes) {
  auto fail = [&](std::string reason) -> std::optional<std::string> {
    if (why != nullptr)
      *why = std::move(reason);
    return std::nullopt;
  };
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
  const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0)
    return fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return fail(kind_of(st.st_mode));
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes)
    return fail(
        fmt::format("is {}, more than the {} gpurun reads", byte_size(size), byte_size(max_bytes)));
  std::string text;
  try {
    text.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    return fail(fmt::format("is {}, more than this machine's memory holds", byte_size(size)));
  }
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return fail(std::strerror(errno));
    if (n == 0)
      break; // the file shrank while it was read
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

} // namespace gpurun
