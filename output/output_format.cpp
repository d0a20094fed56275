#include "output/output_format.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace gpurun {

OutputFormat parse_output_format(std::string_view text, std::string_view flag) {
  for (const auto format :
       {OutputFormat::human, OutputFormat::json, OutputFormat::csv, OutputFormat::md}) {
    if (text == format_name(format))
      return format;
  }
  throw usage_error(fmt::format("{} '{}': expected table, csv, json or md", flag, text));
}

std::string_view format_name(OutputFormat format) {
  switch (format) {
  case OutputFormat::human:
    return "table";
  case OutputFormat::json:
    return "json";
  case OutputFormat::csv:
    return "csv";
  case OutputFormat::md:
    return "md";
  }
  return "table";
}

} // namespace gpurun
