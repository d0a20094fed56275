#include "output/color.hpp"

#include <atomic>
#include <cstdlib>
#include <iostream>

#include <fmt/color.h>
#include <fmt/format.h>
#include <unistd.h>

#include "base/error.hpp"
#include "base/format.hpp"

namespace gpurun {

namespace {

std::atomic<ColorChoice> g_choice{ColorChoice::automatic};

bool environment_allows() {
  if (const char* no_color = std::getenv("NO_COLOR"); no_color != nullptr && *no_color != '\0')
    return false;
  if (const char* term = std::getenv("TERM"); term != nullptr && std::string_view(term) == "dumb")
    return false;
  return true;
}

bool colors_for_fd(int fd) {
  switch (g_choice.load()) {
  case ColorChoice::always:
    return true;
  case ColorChoice::never:
    return false;
  case ColorChoice::automatic:
    break;
  }
  return environment_allows() && isatty(fd) == 1;
}

} // namespace

ColorChoice parse_color_choice(std::string_view text) {
  if (text == "auto")
    return ColorChoice::automatic;
  if (text == "always")
    return ColorChoice::always;
  if (text == "never")
    return ColorChoice::never;
  throw usage_error(
      fmt::format("--color: '{}' is not one of auto, always, never", one_line(text)));
}

void set_color_choice(ColorChoice choice) { g_choice.store(choice); }

bool colors_for(const std::ostream& stream) {
  if (&stream == &std::cout)
    return colors_for_fd(STDOUT_FILENO);
  if (&stream == &std::cerr)
    return colors_for_fd(STDERR_FILENO);
  return false;
}

bool colors_for(std::FILE* stream) {
  if (stream == stdout)
    return colors_for_fd(STDOUT_FILENO);
  if (stream == stderr)
    return colors_for_fd(STDERR_FILENO);
  return false;
}

std::string paint(Tone tone, std::string_view text, bool on) {
  if (!on)
    return std::string(text);
  switch (tone) {
  case Tone::good:
    return fmt::format(fmt::fg(fmt::terminal_color::green), "{}", text);
  case Tone::bad:
    return fmt::format(fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold, "{}", text);
  case Tone::warn:
    return fmt::format(fmt::fg(fmt::terminal_color::yellow), "{}", text);
  }
  return std::string(text);
}

std::string warning_prefix() {
  return "gpurun: " + paint(Tone::warn, "warning:", colors_for(std::cerr)) + " ";
}

std::string error_prefix(std::string_view kind) {
  return "gpurun: " + paint(Tone::bad, fmt::format("{}:", kind), colors_for(std::cerr)) + " ";
}

} // namespace gpurun
