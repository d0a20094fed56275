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

} // namespace

ContextSettings ContextSettings::from(const ContextOptions& options) {
  return ContextSettings{flag(options, "memcheck"), flag(options, "stats"),
                         count(options, "threads"),
                         options.printf_buffer.value_or(k_default_printf_buffer)};
}

} // namespace gpurun::cpu
