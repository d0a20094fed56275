#include "base/subprocess.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace gpurun::proc {
namespace {

// Closes a descriptor once; pipes are closed on every path out of run().
class Fd {
public:
  explicit Fd(int fd = -1) : m_fd(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const noexcept { return m_fd; }
  void reset() noexcept {
    if (m_fd >= 0)
      ::close(m_fd);
    m_fd = -1;
  }

private:
  int m_fd;
};

struct FileActions {
  posix_spawn_file_actions_t actions{};
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
};

} // namespace

Finished run(std::span<const std::string> argv) {
  Finished done;
  if (argv.empty()) {
    done.error = "no program to run";
    return done;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    done.error = std::string("pipe: ") + std::strerror(errno);
    return done;
  }
  Fd read_end(fds[0]);
  Fd write_end(fds[1]);

  FileActions files;
  posix_spawn_file_actions_addopen(&files.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files.actions, write_end.get(), 1);
  posix_spawn_file_actions_adddup2(&files.actions, write_end.get(), 2);

  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, args[0], &files.actions, nullptr, args.data(), environ);
  write_end.reset();
  if (spawned != 0) {
    done.error = argv[0] + ": " + std::strerror(spawned);
    return done;
  }
  done.started = true;

  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(read_end.get(), buffer, sizeof buffer);
    if (n > 0) {
      done.output.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    break;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      done.error = argv[0] + ": waitpid: " + std::strerror(errno);
      return done;
    }
  }
  if (WIFEXITED(status)) {
    done.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    done.signal = WTERMSIG(status);
    done.error = argv[0] + " was killed by signal " + std::to_string(done.signal);
  }
  return done;
}

std::optional<std::filesystem::path> find_program(const std::string& name) {
  if (name.empty())
    return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) == 0 && !std::filesystem::is_directory(name))
      return std::filesystem::path(name);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  const std::string folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= folders.size()) {
    const auto end = std::min(folders.find(':', start), folders.size());
    const std::string folder = folders.substr(start, end - start);
    const std::filesystem::path candidate =
        std::filesystem::path(folder.empty() ? "." : folder) / name;
    std::error_code ec;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate, ec))
      return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  m_path = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

} // namespace gpurun::proc
