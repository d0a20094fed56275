#include "tune/space.hpp"

#include <cctype>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "base/error.hpp"
#include "threads/thread_filter.hpp"

namespace gpurun::tune {

namespace {

std::optional<long long> integer_value(std::string_view text) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return v;
}

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// Python's `and` and `or` (Kernel Tuner writes its restrictions in Python) as `&&` and `||`;
/// every other name must be an integer parameter.
std::string restriction_text(std::string_view text, const std::set<std::string>& integers,
                             const std::vector<bench::Axis>& params, std::string_view field) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (!is_name_start(text[i]) || (i > 0 && is_name_char(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_name_char(text[end]))
      ++end;
    const std::string name(text.substr(i, end - i));
    if (name == "and")
      out += " && ";
    else if (name == "or")
      out += " || ";
    else if (name == "not")
      throw usage_error(fmt::format("{} '{}': write Python's 'not' as !( … ) (it binds more "
                                    "tightly here than in Python)",
                                    field, text));
    else if (integers.count(name) != 0)
      out += name;
    else {
      bool is_param = false;
      for (const auto& p : params)
        is_param = is_param || p.name == name;
      throw usage_error(fmt::format(
          "{} '{}': '{}' is {} (a restriction uses integer parameters: {})", field, text, name,
          is_param ? "a parameter with non-integer values" : "not a parameter",
          integers.empty() ? std::string("none") : fmt::format("{}", fmt::join(integers, " "))));
    }
    i = end;
  }
  return out;
}

} // namespace

Space::Space(std::vector<bench::Axis> params, std::vector<std::string> restrictions,
             std::string_view param_field, std::string_view restrict_field)
    : m_params(std::move(params)), m_restrictions(std::move(restrictions)) {
  if (m_params.empty())
    throw usage_error(fmt::format("{}: no parameter to tune (-p 'NAME=[V1,V2,…]')", param_field));
  std::set<std::string> names;
  std::set<std::string> integers;
  std::size_t product = 1;
  for (const auto& p : m_params) {
    if (!names.insert(p.name).second)
      throw usage_error(fmt::format("{} {}: the parameter is given twice", param_field, p.name));
    std::set<std::string> seen;
    for (const auto& v : p.values)
      if (!seen.insert(v).second)
        throw usage_error(
            fmt::format("{} {}: the value {} is given twice", param_field, p.name, v));
    bool all_integers = true;
    for (const auto& v : p.values)
      all_integers = all_integers && integer_value(v).has_value();
    if (all_integers)
      integers.insert(p.name);
    if (p.values.empty() || product > k_max_points / p.values.size())
      throw usage_error(fmt::format("{}: more than {} configurations before the restrictions",
                                    param_field, k_max_points));
    product *= p.values.size();
  }
  m_unrestricted = product;

  // The restrictions see the integer parameters as columns of one row per configuration.
  std::vector<std::string> columns;
  std::vector<std::size_t> column_param;
  for (std::size_t j = 0; j < m_params.size(); ++j)
    if (integers.count(m_params[j].name) != 0) {
      columns.push_back(m_params[j].name);
      column_param.push_back(j);
    }
  std::vector<RowFilter> filters;
  for (const auto& r : m_restrictions)
    filters.push_back(RowFilter::parse(
        restriction_text(r, integers, m_params, restrict_field), columns,
        fmt::format("{} '{}'", restrict_field, r)));
  std::vector<std::vector<std::uint64_t>> values(m_params.size());
  for (std::size_t j = 0; j < m_params.size(); ++j)
    for (const auto& v : m_params[j].values)
      values[j].push_back(static_cast<std::uint64_t>(integer_value(v).value_or(0)));

  std::vector<std::uint32_t> at(m_params.size(), 0);
  std::vector<std::uint64_t> row(columns.size());
  for (std::size_t n = 0; n < product; ++n) {
    for (std::size_t c = 0; c < columns.size(); ++c)
      row[c] = values[column_param[c]][at[column_param[c]]];
    bool ok = true;
    for (const auto& f : filters)
      ok = ok && f.matches(row);
    if (ok)
      m_coords.push_back(at);
    for (std::size_t j = m_params.size(); j-- > 0;) {
      if (++at[j] < m_params[j].values.size())
        break;
      at[j] = 0;
    }
  }
  index();
}

Space Space::of(std::vector<bench::Axis> params, std::vector<std::vector<std::uint32_t>> configs) {
  Space s;
  s.m_params = std::move(params);
  s.m_coords = std::move(configs);
  s.m_unrestricted = 1;
  for (const auto& p : s.m_params)
    s.m_unrestricted *= p.values.size();
  s.index();
  return s;
}

void Space::index() {
  m_by_key.reserve(m_coords.size());
  for (std::size_t i = 0; i < m_coords.size(); ++i)
    m_by_key.emplace(key(i), i);
}

std::optional<std::size_t> Space::find(const std::vector<std::uint32_t>& coords) const {
  std::string k;
  for (std::size_t j = 0; j < coords.size(); ++j) {
    if (coords[j] >= m_params[j].values.size())
      return std::nullopt;
    k += (j == 0 ? "" : ",") + m_params[j].values[coords[j]];
  }
  return find_key(k);
}

std::optional<std::size_t> Space::find_key(std::string_view key) const {
  const auto it = m_by_key.find(std::string(key));
  if (it == m_by_key.end())
    return std::nullopt;
  return it->second;
}

bench::AxisPoint Space::point(std::size_t i) const {
  bench::AxisPoint p;
  for (std::size_t j = 0; j < m_params.size(); ++j)
    p.emplace_back(m_params[j].name, m_params[j].values[m_coords[i][j]]);
  return p;
}

std::string Space::key(std::size_t i) const {
  std::string k;
  for (std::size_t j = 0; j < m_params.size(); ++j)
    k += (j == 0 ? "" : ",") + m_params[j].values[m_coords[i][j]];
  return k;
}

std::string Space::describe(std::size_t i) const {
  std::string d;
  for (std::size_t j = 0; j < m_params.size(); ++j)
    d += fmt::format("{}{}={}", j == 0 ? "" : ", ", m_params[j].name,
                     m_params[j].values[m_coords[i][j]]);
  return d;
}

} // namespace gpurun::tune
