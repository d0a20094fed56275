// `gpurun capture [--kernel GLOB] [--nth K | --all] [--out DIR] -- PROGRAM ARGS…`: runs a CUDA
// program with libgpurun-capture.so preloaded, which records the selected kernel launches as
// capture folders (docs/capture.md). The program's own output, input and exit status are its own.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/command.hpp"
#include "base/error.hpp"

namespace gpurun {

namespace {

namespace fs = std::filesystem;

struct CaptureArgs {
  std::string kernel = "*";
  std::uint64_t nth = 1;
  bool all = false;
  std::string out = "gpurun-capture";
  std::uint64_t max_bytes = 0; ///< 0: no limit
  bool quiet = false;
  std::vector<std::string> command;
};

/// The interposer: $GPURUN_CAPTURE_LIBRARY, else beside the gpurun binary (a build tree), else
/// where the package installs it.
fs::path interposer_path() {
  if (const char* env = std::getenv("GPURUN_CAPTURE_LIBRARY"); env != nullptr && *env != '\0')
    return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path dir = exe.parent_path();
  for (const fs::path& candidate :
       {dir / "libgpurun-capture.so", dir / GPURUN_CAPTURE_LIBRARY_FROM_BINDIR})
    if (fs::exists(candidate, ec))
      return candidate.lexically_normal();
  throw unavailable_error(
      fmt::format("capture: libgpurun-capture.so is not installed beside gpurun ({}); set "
                  "GPURUN_CAPTURE_LIBRARY to its path",
                  (dir / GPURUN_CAPTURE_LIBRARY_FROM_BINDIR).lexically_normal().string()));
}

/// Launch folders written under `out` since `since`.
std::vector<fs::path> captures_since(const fs::path& out, fs::file_time_type since) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::directory_iterator(out, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const fs::path record = it->path() / "launch.json";
    std::error_code e;
    if (fs::exists(record, e) && fs::last_write_time(record, e) >= since)
      found.push_back(it->path());
  }
  return found;
}

int run_capture(const CaptureArgs& args) {
  if (args.command.empty())
    throw usage_error("capture: the program to run goes after '--': gpurun capture -- ./app ARGS");
  if (args.kernel.empty() || args.kernel.find(',') != std::string::npos)
    throw usage_error(
        fmt::format("--kernel: '{}' must be a non-empty glob without ','", args.kernel));
  if (args.out.find(',') != std::string::npos)
    throw usage_error(fmt::format("--out: '{}': a folder whose name has no ','", args.out));
  const fs::path library = interposer_path();
  std::error_code ec;
  fs::create_directories(args.out, ec);
  if (ec)
    throw usage_error(fmt::format("--out {}: cannot make the folder: {}", args.out, ec.message()));
  const fs::path out = fs::absolute(args.out, ec);
  std::string settings = fmt::format("out={},kernel={},nth={}", out.string(), args.kernel,
                                     args.all ? std::string("all") : std::to_string(args.nth));
  if (args.max_bytes > 0)
    settings += fmt::format(",max-bytes={}", args.max_bytes);
  if (args.quiet)
    settings += ",quiet";
  std::string preload = library.string();
  if (const char* existing = std::getenv("LD_PRELOAD"); existing != nullptr && *existing != '\0')
    preload += std::string(":") + existing;

  const auto started = fs::file_time_type::clock::now();
  const pid_t pid = fork();
  if (pid < 0)
    throw unavailable_error(
        fmt::format("capture: cannot start a process: {}", std::strerror(errno)));
  if (pid == 0) {
    setenv("GPURUN_CAPTURE", settings.c_str(), 1);
    setenv("LD_PRELOAD", preload.c_str(), 1);
    std::vector<char*> argv;
    for (const auto& a : args.command)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "gpurun: error: capture: cannot run %s: %s\n", argv[0],
                 std::strerror(errno));
    _exit(127);
  }
  // Ctrl-C reaches the program (same process group); gpurun waits for it to end.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_int {};
  struct sigaction old_quit {};
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code == 127 && WIFEXITED(status))
    return code;
  const auto folders = captures_since(out, started);
  if (folders.empty()) {
    std::fprintf(stderr,
                 "gpurun: capture: no launch of a kernel matching '%s' was captured (the "
                 "program exited with %d)\n",
                 args.kernel.c_str(), code);
    return code != 0 ? code : static_cast<int>(ExitCode::check_failed);
  }
  std::fprintf(stderr, "gpurun: captured %zu launch%s into %s (the program exited with %d)\n",
               folders.size(), folders.size() == 1 ? "" : "es", out.string().c_str(), code);
  return code;
}

} // namespace

void add_capture_command(CLI::App& app, CommandEnv& env) {
  auto args = std::make_shared<CaptureArgs>();
  CLI::App* cmd = app.add_subcommand(
      "capture", "Run a CUDA program and record kernel launches as replayable capture folders");
  cmd->footer("\nExamples:\n"
              "  gpurun capture -- ./app input.bin\n"
              "  gpurun capture --kernel 'softmax*' --nth 100 --out caps -- python train.py\n"
              "\nEach capture is a folder OUT/KERNEL-K: launch.json (grid, block, parameters, the\n"
              "allocations they point into), the module image as the program loaded it, the\n"
              "parameter bytes and every such allocation before and after the launch\n"
              "(docs/capture.md). GPURUN_CAPTURE='out=DIR,kernel=GLOB,nth=K' with\n"
              "LD_PRELOAD=libgpurun-capture.so does the same for a program started elsewhere.");
  cmd->add_option("--kernel", args->kernel,
                  "Kernels to capture: a glob over the names the module has (mangled for C++; "
                  "default *)");
  cmd->add_option("--nth", args->nth, "Capture the K-th launch of each matching kernel (default 1)")
      ->check(whole_number_at_least(1));
  cmd->add_flag("--all", args->all, "Capture every launch of each matching kernel");
  cmd->add_option("--out", args->out, "Folder of the captures (default gpurun-capture)");
  cmd->add_option("--max-bytes", args->max_bytes,
                  "Save at most this many bytes of memory per launch (the capture says what it "
                  "left out)")
      ->check(whole_number_at_least(1));
  cmd->add_flag("--quiet", args->quiet, "Do not report each capture on stderr");
  cmd->add_option("command", args->command, "The program and its arguments, after --")
      ->expected(-1);
  cmd->callback([args, &env] { env.exit_code = run_capture(*args); });
}

} // namespace gpurun
