#include "base/signal_cleanup.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>

#include <unistd.h>

namespace gpurun {

namespace {

enum SlotState : int { k_free, k_busy, k_armed };

struct Slot {
  std::atomic<int> state{k_free};
  RemoveOnSignal::Kind kind = RemoveOnSignal::Kind::file;
  char path[PATH_MAX] = {};
};

std::array<Slot, RemoveOnSignal::k_max_paths> g_slots;

constexpr std::array<int, 3> k_signals = {SIGINT, SIGTERM, SIGHUP};

static_assert(std::atomic<int>::is_always_lock_free, "the handler reads the slots' state");

void remove_registered(RemoveOnSignal::Kind kind) {
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == k_armed && slot.kind == kind) {
      if (kind == RemoveOnSignal::Kind::file)
        ::unlink(slot.path);
      else
        ::rmdir(slot.path);
    }
}

extern "C" void on_terminating_signal(int signal) {
  const int saved_errno = errno;
  remove_registered(RemoveOnSignal::Kind::file);
  remove_registered(RemoveOnSignal::Kind::folder);
  // The default action, once this handler returns and the signal is no longer blocked.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
  ::raise(signal);
  errno = saved_errno;
}

} // namespace

void install_signal_cleanup() {
  for (const int signal : k_signals) {
    struct sigaction old {};
    if (::sigaction(signal, nullptr, &old) != 0 || old.sa_handler == SIG_IGN)
      continue;
    struct sigaction action {};
    action.sa_handler = on_terminating_signal;
    sigemptyset(&action.sa_mask);
    // Every one of them blocked while one is handled: a second signal waits for the cleanup.
    for (const int other : k_signals)
      sigaddset(&action.sa_mask, other);
    ::sigaction(signal, &action, nullptr);
  }
}

RemoveOnSignal::RemoveOnSignal(const std::filesystem::path& path, Kind kind) {
  const std::string& text = path.native();
  if (text.size() >= PATH_MAX)
    return;
  for (std::size_t i = 0; i < g_slots.size(); ++i) {
    Slot& slot = g_slots[i];
    int expected = k_free;
    if (!slot.state.compare_exchange_strong(expected, k_busy, std::memory_order_acquire))
      continue;
    std::memcpy(slot.path, text.c_str(), text.size() + 1);
    slot.kind = kind;
    slot.state.store(k_armed, std::memory_order_release);
    m_slot = static_cast<int>(i);
    return;
  }
}

RemoveOnSignal::~RemoveOnSignal() {
  if (m_slot < 0)
    return;
  g_slots[static_cast<std::size_t>(m_slot)].state.store(k_free, std::memory_order_release);
}

} // namespace gpurun
