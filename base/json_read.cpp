#include "base/json_read.hpp"

#include <new>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/read_file.hpp"

namespace gpurun {

namespace {

/// Line and column (from 1) of byte `offset`, as the parser's messages count them.
std::string position(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n')
      line += 1, column = 1;
    else
      column += 1;
  }
  return fmt::format("line {}, column {}", line, column);
}

/// Before parsing, without recursion: a NUL byte, or an array or object opened deeper than the
/// limit. Brackets inside strings do not count. In a valid document this tokenization is the
/// parser's own; in an invalid one the parser would refuse it anyway.
void check_structure(std::string_view text, std::string_view name) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0')
      throw usage_error(fmt::format("{}: invalid JSON: a NUL byte at {}", name, position(text, i)));
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
    case '"':
      in_string = true;
      break;
    case '[':
    case '{':
      if (++depth > k_max_json_depth)
        throw usage_error(fmt::format("{}: invalid JSON: nested deeper than {} levels at {}", name,
                                      k_max_json_depth, position(text, i)));
      break;
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
}

} // namespace

std::string json_error_text(const std::exception& e) {
  std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0)
    if (const auto p = what.find("] "); p != std::string::npos)
      what = what.substr(p + 2);
  return what;
}

template <class Json> Json parse_json(std::string_view text, std::string_view name) {
  check_structure(text, name);
  try {
    return Json::parse(text);
  } catch (const typename Json::exception& e) {
    // nlohmann's message is "[json.exception.parse_error.101] parse error at line 3, …"; a number
    // beyond a double (1e400) is an out_of_range, not a parse_error.
    throw usage_error(fmt::format("{}: invalid JSON: {}", name, json_error_text(e)));
  } catch (const std::bad_alloc&) {
    throw usage_error(fmt::format("{}: too large to hold in memory", name));
  }
}

template <class Json>
Json read_json_file(const std::filesystem::path& path, std::string_view what,
                    std::string_view label) {
  const std::string name = label.empty() ? path.string() : std::string(label);
  std::string why;
  const auto text = read_file(path, &why);
  if (!text)
    throw usage_error(fmt::format("{}: cannot read the {} file: {}", name, what, why));
  return parse_json<Json>(*text, name);
}

template nlohmann::json parse_json<nlohmann::json>(std::string_view, std::string_view);
template nlohmann::ordered_json parse_json<nlohmann::ordered_json>(std::string_view,
                                                                   std::string_view);
template nlohmann::json read_json_file<nlohmann::json>(const std::filesystem::path&,
                                                       std::string_view, std::string_view);
template nlohmann::ordered_json read_json_file<nlohmann::ordered_json>(const std::filesystem::path&,
                                                                       std::string_view,
                                                                       std::string_view);

} // namespace gpurun
