#include "backends/cpu/context_settings.hpp"

#include <charconv>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun::cpu {

namespace {

bool flag(const ContextOptions& options, const char* name) {
  const std::string* value = options.find(name);
  if (value == nullptr || *value == "0" || value->empty())
    return false;
  if (*value == "1")
    return true;
  throw usage_error(fmt::format("cpu backend setting {}={}: expected 0 or 1", name, *value));
}

int count(const ContextOptions& options, const char* name) {
  const std::string* value = options.find(name);
  if (value == nullptr)
    return 0;
  int n = 0;
  const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
  if (ec != std::errc{} || end != value->data() + value->size() || n < 0)
    throw usage_error(fmt::format("cpu backend setting {}={}: expected a count ≥ 0", name, *value));
  return n;
}

std::size_t bytes(const ContextOptions& options, const char* name, std::size_t fallback) {
  const std::string* value = options.find(name);
  if (value == nullptr)
    return fallback;
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), n);
  if (ec != std::errc{} || end != value->data() + value->size())
    throw usage_error(
        fmt::format("cpu backend setting {}={}: expected a number of bytes", name, *value));
  return n;
}

} // namespace

ContextSettings ContextSettings::from(const ContextOptions& options) {
  ContextSettings s;
  s.memcheck = flag(options, "memcheck");
  s.stats = flag(options, "stats");
  s.threads = count(options, "threads");
  s.printf_buffer = options.printf_buffer.value_or(k_default_printf_buffer);
  s.racecheck = flag(options, "racecheck");
  s.initcheck = flag(options, "initcheck");
  s.synccheck = flag(options, "synccheck");
  s.leakcheck = flag(options, "leakcheck");
  s.heap_bytes = bytes(options, "heap_size", s.heap_bytes);
  if (options.find("max_findings") != nullptr)
    s.max_findings = static_cast<std::size_t>(count(options, "max_findings"));
  return s;
}

} // namespace gpurun::cpu
