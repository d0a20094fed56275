#include "output/progress_line.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/format.hpp"

namespace gpurun {

namespace {

constexpr auto k_period = std::chrono::milliseconds(100);
constexpr std::size_t k_default_columns = 80;

std::size_t terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return k_default_columns;
}

void write_stderr(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

} // namespace

std::string fit_to_columns(const std::string& text, std::size_t columns) {
  if (display_width(text) <= columns)
    return text;
  if (columns == 0)
    return {};
  // Keep whole UTF-8 characters: columns - 1 of them, then the ellipsis.
  std::string out;
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool starts_character = (byte & 0xC0) != 0x80;
    if (starts_character && ++width > columns - 1)
      break;
    out += text[i];
  }
  return out + "…";
}

std::string rough_duration(double seconds) {
  if (!(seconds >= 0))
    return "?";
  if (seconds < 1)
    return fmt::format("{:.0f} ms", seconds * 1e3);
  if (seconds < 10)
    return fmt::format("{:.1f} s", seconds);
  if (seconds < 600)
    return fmt::format("{:.0f} s", seconds);
  const auto whole = static_cast<long long>(seconds);
  return fmt::format("{} min {} s", whole / 60, whole % 60);
}

bool ProgressLine::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool enabled, std::chrono::milliseconds delay)
    : m_start(std::chrono::steady_clock::now()), m_delay(delay) {
  if (enabled && stderr_is_terminal())
    m_thread = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::show(Status status) {
  std::lock_guard lock(m_mutex);
  m_status = std::move(status);
}

void ProgressLine::show(std::string text) {
  show([text = std::move(text)] { return text; });
}

void ProgressLine::clear() {
  {
    std::lock_guard lock(m_mutex);
    m_stopped = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable())
    m_thread.join();
}

void ProgressLine::tick() {
  std::unique_lock lock(m_mutex);
  m_wake.wait_until(lock, m_start + m_delay, [this] { return m_stopped; });
  while (!m_stopped) {
    if (m_status) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
      const std::string text = fmt::format("gpurun: {} · {}", rough_duration(elapsed), m_status());
      write_stderr("\r\033[K" + fit_to_columns(text, terminal_columns() - 1));
      m_shown = true;
    }
    m_wake.wait_for(lock, k_period, [this] { return m_stopped; });
  }
  if (m_shown)
    write_stderr("\r\033[K");
}

} // namespace gpurun
