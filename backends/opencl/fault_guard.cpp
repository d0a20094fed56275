#include "backends/opencl/fault_guard.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

#include <unistd.h>

#include "base/error.hpp"

namespace gpurun::opencl {
namespace {

// The message, made before the kernel runs: a signal handler may only write and exit.
char g_message[512];
std::atomic<std::size_t> g_length{0}; // 0: no kernel in flight

void on_fault(int signal) {
  const std::size_t length = g_length.load(std::memory_order_acquire);
  if (length == 0) { // gpurun's own fault: the default action, as if no handler were there
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  const char* name = signal == SIGBUS ? "SIGBUS" : "SIGSEGV";
  (void)!::write(2, g_message, length);
  (void)!::write(2, name, std::strlen(name));
  (void)!::write(2, ")\n", 2);
  ::_exit(static_cast<int>(ExitCode::device));
}

} // namespace

void guard_kernel(std::string_view kernel) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action {};
    action.sa_handler = on_fault;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;
    ::sigaction(SIGSEGV, &action, nullptr);
    ::sigaction(SIGBUS, &action, nullptr);
  });
  constexpr std::string_view head = "gpurun: error: kernel '";
  constexpr std::string_view tail = "' faulted on the OpenCL device: an access outside its "
                                    "buffers? (the platform runs it in gpurun's process: ";
  const std::size_t room = sizeof g_message - head.size() - tail.size();
  const std::size_t n = std::min(kernel.size(), room);
  char* p = g_message;
  p = std::copy(head.begin(), head.end(), p);
  p = std::copy(kernel.begin(), kernel.begin() + static_cast<long>(n), p);
  p = std::copy(tail.begin(), tail.end(), p);
  g_length.store(static_cast<std::size_t>(p - g_message), std::memory_order_release);
}

void unguard_kernel() noexcept {
  g_length.store(0, std::memory_order_release);
}

} // namespace gpurun::opencl
