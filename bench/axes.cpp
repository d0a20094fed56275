#include "bench/axes.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/arithmetic.hpp"
#include "base/error.hpp"

namespace gpurun::bench {
namespace {

using nlohmann::json;

// An axis of more values than this is a typo (a missing step), not a benchmark.
constexpr std::size_t k_max_values = 100000;
// 2^63 does not fit the signed 64-bit sizes that buffer shapes and scalars are read as.
constexpr long long k_max_pow2_exponent = 62;

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s.front() >= '0' && s.front() <= '9'))
    return false;
  for (const char c : s)
    if (!is_identifier_char(c))
      return false;
  return true;
}

// A plain decimal integer with an optional sign; nothing else counts as one in a range.
std::optional<long long> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+')
    s.remove_prefix(1);
  long long value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size())
    return std::nullopt;
  return value;
}

bool is_number(std::string_view s) {
  if (s.empty())
    return false;
  const std::string text(s);
  char* end = nullptr;
  (void)std::strtod(text.c_str(), &end);
  // strtod also reads "inf", "nan" and hex floats; a value spelled with letters is a word here.
  const bool has_letter_start =
      (text.front() >= 'a' && text.front() <= 'z') || (text.front() >= 'A' && text.front() <= 'Z');
  return !has_letter_start && end == text.c_str() + text.size();
}

std::vector<std::string> split_list(std::string_view inner, const SourceText& where) {
  std::vector<std::string> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = inner.find(',', start);
    const auto item = trim(inner.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (item.empty())
      throw_whole(where, "the list has an empty value");
    values.emplace_back(item);
    if (values.size() > k_max_values)
      throw_whole(where, fmt::format("more than {} values", k_max_values));
    if (comma == std::string_view::npos)
      return values;
    start = comma + 1;
  }
}

// "START:END[:STEP]", inclusive at both ends, as nvbench reads it.
std::vector<long long> expand_range(std::string_view inner, const SourceText& where) {
  std::vector<long long> bounds;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = inner.find(':', start);
    const auto part = trim(inner.substr(
        start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    const auto value = parse_integer(part);
    if (!value)
      throw_whole(where, fmt::format("a range takes integers, not '{}'", part));
    bounds.push_back(*value);
    if (colon == std::string_view::npos)
      break;
    start = colon + 1;
  }
  if (bounds.size() > 3)
    throw_whole(where, "a range is START:END or START:END:STEP");
  const WideInt first = bounds[0];
  const WideInt last = bounds[1];
  const WideInt step = bounds.size() == 3 ? bounds[2] : 1;
  if (step == 0)
    throw_whole(where, "the step is 0");
  if ((last - first) * step < 0)
    throw_whole(where, fmt::format("the step {} never reaches {} from {}", wide_to_string(step),
                                   wide_to_string(last), wide_to_string(first)));
  const WideInt count = (last - first) / step + 1;
  if (count > static_cast<WideInt>(k_max_values))
    throw_whole(where, fmt::format("{} values, more than {}", wide_to_string(count), k_max_values));
  std::vector<long long> values;
  values.reserve(static_cast<std::size_t>(count));
  for (WideInt i = 0; i < count; ++i)
    values.push_back(static_cast<long long>(first + i * step));
  return values;
}

std::string power_of_two(std::string_view exponent_text, const SourceText& where) {
  const auto exponent = parse_integer(exponent_text);
  if (!exponent)
    throw_whole(where, fmt::format("pow2 takes integer exponents, not '{}'", exponent_text));
  if (*exponent < 0 || *exponent > k_max_pow2_exponent)
    throw_whole(where, fmt::format("the pow2 exponent {} is outside 0..{}", *exponent,
                                   k_max_pow2_exponent));
  return std::to_string(1LL << *exponent);
}

void replace_value(std::string& out, const std::string& value) {
  if (!value.empty() && value.front() == '-' && is_number(value))
    out += "(" + value + ")";
  else
    out += value;
}

json substitute_all(const json& value, const AxisPoint& point) {
  if (value.is_string())
    return substitute(value.get<std::string>(), point);
  if (value.is_array()) {
    json out = json::array();
    for (const auto& item : value)
      out.push_back(substitute_all(item, point));
    return out;
  }
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, item] : value.items())
      out[key] = substitute_all(item, point);
    return out;
  }
  return value;
}

// Where a "NAME=…" entry's value begins: after the name's '=', or 0 when the entry has no name.
// `arg_grammar`: an '=' names the parameter only before any '[', ':' or '(' (docs/arg-grammar.md),
// so the '=' of "u8[16]:rand(seed=7)" belongs to the fill.
std::size_t value_start(std::string_view entry, bool arg_grammar) {
  const std::size_t cut = entry.find_first_of(arg_grammar ? "=[:(" : "=");
  return cut != std::string_view::npos && entry[cut] == '=' ? cut + 1 : 0;
}

json substitute_entries(const json& entries, const AxisPoint& point, bool arg_grammar) {
  if (!entries.is_array())
    return substitute_all(entries, point);
  json out = json::array();
  for (const auto& entry : entries) {
    if (entry.is_string()) {
      const auto text = entry.get<std::string>();
      const std::size_t start = value_start(text, arg_grammar);
      out.push_back(text.substr(0, start) +
                    substitute(std::string_view(text).substr(start), point));
    } else if (entry.is_object()) {
      json copy = json::object();
      for (const auto& [key, item] : entry.items())
        copy[key] = key == "name" ? item : substitute_all(item, point);
      out.push_back(std::move(copy));
    } else {
      out.push_back(substitute_all(entry, point));
    }
  }
  return out;
}

json substitute_compile(const json& compile, const AxisPoint& point) {
  if (!compile.is_object())
    return substitute_all(compile, point);
  json out = json::object();
  for (const auto& [key, item] : compile.items()) {
    if (key == "defines" && item.is_array())
      out[key] = substitute_entries(item, point, false);
    else
      out[key] = substitute_all(item, point); // {"NAME": value}: keys stay, values substituted
  }
  return out;
}

} // namespace

Axis parse_axis(std::string_view text, std::string_view field) {
  const SourceText where{field, text};
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    throw_whole(where, "expected NAME=VALUES, e.g. N=[1,2,3]");
  std::string_view head = trim(text.substr(0, eq));
  const std::string_view body = trim(text.substr(eq + 1));

  bool pow2 = false;
  if (const std::size_t open = head.find('['); open != std::string_view::npos) {
    if (head.back() != ']')
      throw_whole(where, "expected NAME[pow2]=VALUES");
    const auto flag = trim(head.substr(open + 1, head.size() - open - 2));
    if (flag != "pow2")
      throw_whole(where, fmt::format("unknown axis flag '{}' (the only one is pow2)", flag));
    pow2 = true;
    head = trim(head.substr(0, open));
  }
  if (!is_identifier(head))
    throw_whole(where, fmt::format("'{}' is not an axis name (a C identifier)", head));

  Axis axis{std::string(head), {}};
  if (body.empty())
    throw_whole(where, "no value after '='");
  if (body.front() != '[') {
    if (body.find_first_of(",:[]") != std::string_view::npos)
      throw_whole(where, "write lists and ranges in brackets: N=[1,2,3], N=[0:8:2]");
    axis.values.emplace_back(body);
  } else {
    if (body.back() != ']')
      throw_whole(where, "the list has no closing ']'");
    const auto inner = trim(body.substr(1, body.size() - 2));
    if (inner.empty())
      throw_whole(where, "the list is empty");
    if (inner.find(':') != std::string_view::npos && inner.find(',') == std::string_view::npos) {
      for (const long long v : expand_range(inner, where))
        axis.values.push_back(std::to_string(v));
    } else {
      axis.values = split_list(inner, where);
    }
  }
  if (pow2)
    for (auto& value : axis.values)
      value = power_of_two(value, where);
  return axis;
}

std::vector<AxisPoint> cross_product(const std::vector<Axis>& axes) {
  std::set<std::string_view> names;
  for (const auto& axis : axes)
    if (!names.insert(axis.name).second)
      throw usage_error(fmt::format("axis '{}' is given twice", axis.name));
  // Axes each within the limit can still multiply to more points than memory holds.
  std::size_t count = 1;
  for (const auto& axis : axes)
    if (__builtin_mul_overflow(count, axis.values.size(), &count) || count > k_max_values) {
      std::vector<std::string> sizes;
      for (const auto& a : axes)
        sizes.push_back(fmt::format("{} ({})", a.name, a.values.size()));
      throw usage_error(fmt::format("axes {}: more than {} points in all", fmt::join(sizes, " × "),
                                    k_max_values));
    }
  std::vector<AxisPoint> points{AxisPoint{}};
  for (const auto& axis : axes) {
    std::vector<AxisPoint> next;
    next.reserve(points.size() * axis.values.size());
    // Extending every point by each value in turn keeps the last axis the fastest.
    for (const auto& point : points)
      for (const auto& value : axis.values) {
        next.push_back(point);
        next.back().emplace_back(axis.name, value);
      }
    points = std::move(next);
  }
  return points;
}

std::string point_name(const AxisPoint& point) {
  std::string name;
  for (const auto& [axis, value] : point) {
    if (!name.empty())
      name += '/';
    name += axis + ":" + value;
  }
  return name;
}

std::string substitute(std::string_view text, const AxisPoint& point) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_identifier_char(text[i])) {
      out += text[i++];
      continue;
    }
    // A whole run of identifier characters is one word: "N2", "xN" and "f32" are not "N".
    std::size_t end = i;
    while (end < text.size() && is_identifier_char(text[end]))
      ++end;
    const std::string_view word = text.substr(i, end - i);
    const std::pair<std::string, std::string>* match = nullptr;
    for (const auto& entry : point)
      if (entry.first == word) {
        match = &entry;
        break;
      }
    if (match != nullptr)
      replace_value(out, match->second);
    else
      out += word;
    i = end;
  }
  return out;
}

GivenFlags substitute_flags(const GivenFlags& flags, const AxisPoint& point) {
  GivenFlags out;
  out.base_dir = flags.base_dir;
  for (const auto& [parameter, texts] : flags.values) {
    std::vector<std::string> substituted;
    for (const std::string& text : texts) {
      if (parameter->name == "source") {
        substituted.push_back(text);
        continue;
      }
      std::size_t start = 0;
      if (parameter->type == ParameterType::args)
        start = value_start(text, true);
      else if (parameter->type == ParameterType::globals ||
               parameter->type == ParameterType::expects ||
               parameter->type == ParameterType::defines)
        start = value_start(text, false);
      substituted.push_back(text.substr(0, start) +
                            substitute(std::string_view(text).substr(start), point));
    }
    out.add(*parameter, std::move(substituted));
  }
  return out;
}

json substitute_case(const json& case_doc, const AxisPoint& point) {
  if (!case_doc.is_object())
    return substitute_all(case_doc, point);
  json out = json::object();
  for (const auto& [key, value] : case_doc.items()) {
    if (key == "name" || key == "source" || key == "axes")
      out[key] = value;
    else if (key == "args")
      out[key] = substitute_entries(value, point, true);
    else if (key == "globals")
      out[key] = substitute_entries(value, point, false);
    else if (key == "compile")
      out[key] = substitute_compile(value, point);
    else
      out[key] = substitute_all(value, point);
  }
  return out;
}

} // namespace gpurun::bench
