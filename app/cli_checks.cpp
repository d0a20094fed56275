// Checks of option values that CLI11 runs while parsing, with messages in gpurun's words.
#include <charconv>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "app/command.hpp"

namespace gpurun {

CLI::Validator whole_number_at_least(long long minimum) {
  return CLI::Validator(
      [minimum](std::string& value) -> std::string {
        long long n = 0;
        const char* end = value.data() + value.size();
        const auto [stop, ec] = std::from_chars(value.data(), end, n);
        if (ec == std::errc::result_out_of_range && stop == end && value.front() != '-')
          return fmt::format("'{}' is too large (at most {})", value,
                             std::numeric_limits<long long>::max());
        if (ec != std::errc{} || stop != end || n < minimum)
          return fmt::format("'{}' must be a whole number ≥ {}", value, minimum);
        return {};
      },
      "");
}

} // namespace gpurun
