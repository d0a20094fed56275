#include "capture/preload/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gpurun::capture::preload {

namespace {

Settings read_settings() {
  Settings s;
  const char* env = std::getenv("GPURUN_CAPTURE");
  std::string_view text = env != nullptr ? env : "";
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const auto eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? std::string_view()
                                                         : item.substr(eq + 1));
    if (key == "out")
      s.out = value;
    else if (key == "kernel")
      s.kernel = value;
    else if (key == "nth")
      s.nth = value == "all" ? 0 : std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "max-bytes")
      s.max_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "quiet")
      s.quiet = true;
  }
  return s;
}

} // namespace

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

void say(const std::string& line) {
  if (!settings().quiet)
    std::fprintf(stderr, "gpurun capture: %s\n", line.c_str());
}

} // namespace gpurun::capture::preload
