#include "pipeline/spec.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/arithmetic.hpp"
#include "base/dims.hpp"
#include "base/error.hpp"
#include "base/json_read.hpp"
#include "base/json_text.hpp"
#include "pipeline/run_parameters.hpp"

namespace gpurun {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view k_buffer_keys[] = {"name", "type", "shape", "fill", "device"};
constexpr std::string_view k_scalar_keys[] = {"name", "type", "value"};

std::string json_type(const json& j) {
  switch (j.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::boolean:
    return "a boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "an integer";
  case json::value_t::number_float:
    return "a number";
  case json::value_t::string:
    return "a string";
  case json::value_t::array:
    return "an array";
  case json::value_t::object:
    return "an object";
  default:
    return "something else";
  }
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// Reads one spec document; every message starts with the file name and the key's path.
class SpecReader {
public:
  SpecReader(std::string name, fs::path dir) : m_name(std::move(name)), m_dir(std::move(dir)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw usage_error(fmt::format("{}: '{}' {}", m_name, key, what));
  }
  [[noreturn]] void wrong_type(const std::string& key, const json& j,
                               std::string_view expected) const {
    fail(key, fmt::format("must be {}, not {}", expected, json_type(j)));
  }

  template <std::size_t N>
  void check_keys(const json& obj, const std::string& where,
                  const std::string_view (&known)[N]) const {
    check_known_keys(obj, m_name, where, known);
  }

  std::string string(const json& j, const std::string& key) const {
    if (!j.is_string())
      wrong_type(key, j, "a string");
    return j.get<std::string>();
  }

  std::vector<std::string> strings(const json& j, const std::string& key) const {
    if (!j.is_array())
      wrong_type(key, j, "an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
      out.push_back(string(j[i], fmt::format("{}[{}]", key, i)));
    }
    return out;
  }

  double number(const json& j, const std::string& key) const {
    if (!j.is_number())
      wrong_type(key, j, "a number");
    return j.get<double>();
  }

  long long integer(const json& j, const std::string& key) const {
    if (j.is_number_integer())
      return j.get<long long>();
    if (j.is_string())
      return eval_int_expr(j.get<std::string>(), key);
    wrong_type(key, j, "an integer");
  }

  // A number as the grammar writes it: integers exactly, floats in shortest round-trip form.
  std::string number_text(const json& j, const std::string& key) const {
    if (j.is_number())
      return j.dump();
    if (j.is_string())
      return j.get<std::string>(); // "nan", "inf", "1<<20"
    if (j.is_boolean())
      return j.get<bool>() ? "1" : "0";
    wrong_type(key, j, "a number");
  }

  Dim3 dims(const json& j, const std::string& key) const {
    std::string text;
    if (j.is_number_integer() || j.is_string()) {
      text = j.is_string() ? j.get<std::string>() : j.dump();
    } else if (j.is_array() && !j.empty() && j.size() <= 3) {
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_number_integer() && !j[i].is_string()) {
          wrong_type(fmt::format("{}[{}]", key, i), j[i], "an integer");
        }
        if (i != 0)
          text += ',';
        text += j[i].is_string() ? j[i].get<std::string>() : j[i].dump();
      }
    } else {
      wrong_type(key, j, "an array of 1 to 3 integers, a string \"X,Y,Z\" or an integer");
    }
    return parse_dims(text, key);
  }

  fs::path path(const std::string& p) const {
    fs::path q(p);
    return q.is_absolute() ? q : m_dir / q;
  }

  // '@' only ever starts a file fill (after ':' or '=' or at the start of an expectation), and a
  // fill is always the last part of a spec, so the rest of the text is the path.
  std::string absolute_at_paths(const std::string& text) const {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '@' && (i == 0 || text[i - 1] == ':' || text[i - 1] == '=')) {
        return text.substr(0, i + 1) + path(text.substr(i + 1)).string();
      }
    }
    return text;
  }

  std::string fill_text(const json& j, const std::string& key) const {
    if (j.is_string())
      return j.get<std::string>();
    if (j.is_number())
      return j.dump();
    if (j.is_array())
      return list_text(j, key);
    wrong_type(key, j, "a fill string, a number or an array of numbers");
  }

  std::string list_text(const json& j, const std::string& key) const {
    std::string out = "[";
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i != 0)
        out += ", ";
      out += number_text(j[i], fmt::format("{}[{}]", key, i));
    }
    return out + "]";
  }

  // An args/globals entry as --arg grammar text.
  std::string arg_text(const json& j, const std::string& key, bool need_name) const {
    if (j.is_string())
      return absolute_at_paths(j.get<std::string>());
    if (!j.is_object())
      wrong_type(key, j, "a string (--arg grammar) or an object");
    const bool scalar = j.contains("value");
    if (scalar)
      check_keys(j, key, k_scalar_keys);
    else
      check_keys(j, key, k_buffer_keys);
    std::string out;
    if (j.contains("name"))
      out = string(j["name"], key + ".name") + "=";
    else if (need_name)
      fail(key, "needs a \"name\"");
    if (scalar) {
      if (j.contains("type"))
        out += string(j["type"], key + ".type") + ":";
      return out + number_text(j["value"], key + ".value");
    }
    if (!j.contains("type"))
      fail(key, "needs a \"type\" (f32, i32, …) or a \"value\"");
    if (!j.contains("shape"))
      fail(key, "needs a \"shape\" (e.g. [20])");
    out += string(j["type"], key + ".type") + "[";
    const json& shape = j["shape"];
    if (shape.is_array() && !shape.empty()) {
      for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i != 0)
          out += ',';
        out += std::to_string(integer(shape[i], fmt::format("{}.shape[{}]", key, i)));
      }
    } else if (shape.is_number_integer() || shape.is_string()) {
      out += number_text(shape, key + ".shape");
    } else {
      wrong_type(key + ".shape", shape, "an array of integers");
    }
    out += "]";
    if (j.contains("device")) {
      const auto device = integer(j["device"], key + ".device");
      if (device < 0)
        fail(key + ".device", fmt::format("{} is not a device index (0, 1, …)", device));
      out += "@" + std::to_string(device);
    }
    if (j.contains("fill"))
      out += ":" + fill_text(j["fill"], key + ".fill");
    return absolute_at_paths(out);
  }

  std::vector<std::string> arg_list(const json& j, const std::string& key, bool need_name) const {
    if (!j.is_array())
      wrong_type(key, j, "an array");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
      out.push_back(arg_text(j[i], fmt::format("{}[{}]", key, i), need_name));
    }
    return out;
  }

  std::vector<std::string> defines(const json& d, const std::string& key) const {
    if (!d.is_object())
      return strings(d, key);
    std::vector<std::string> out;
    for (const auto& [name, value] : d.items()) {
      if (value.is_null())
        out.push_back(name);
      else
        out.push_back(name + "=" +
                      (value.is_string() ? value.get<std::string>() : json_text(value)));
    }
    return out;
  }

  std::vector<std::string> expectations(const json& e, const std::string& key) const {
    if (!e.is_object())
      wrong_type(key, e, "an object (buffer name → expected values)");
    std::vector<std::string> out;
    for (const auto& [name, value] : e.items())
      out.push_back(name + "=" + expect_text(value, key + "." + name));
    return out;
  }

  std::string print_selection(const json& p, const std::string& key) const {
    if (!p.is_array())
      return string(p, key);
    std::string joined;
    for (const auto& n : strings(p, key))
      joined += (joined.empty() ? "" : ",") + n;
    return joined.empty() ? "none" : joined;
  }

  long long whole_number(const RunParameter& p, const json& j, const std::string& key) const {
    const long long v = integer(j, key);
    if (p.max != 0 && (v < p.min || v > p.max))
      fail(key, fmt::format("must be between {} and {}", p.min, p.max));
    if (v < p.min)
      fail(key, fmt::format("must be ≥ {}", p.min));
    return v;
  }

  // One parameter's value as its type is written in a spec.
  ParameterValue value(const RunParameter& p, const json& j, const std::string& key) const {
    using T = ParameterType;
    switch (p.type) {
    case T::text:
      return string(j, key);
    case T::compiler:
      return compiler_choice(string(j, key), fmt::format("{}: {}", m_name, key));
    case T::path:
      return path(string(j, key)).string();
    case T::dims:
      return dims(j, key);
    case T::count:
    case T::bytes:
      return whole_number(p, j, key);
    case T::real:
      return non_negative(j, key);
    case T::seconds: {
      const double t = number(j, key);
      if (!(t > 0))
        fail(key, "must be > 0 seconds");
      return t <= k_max_watchdog_s ? std::optional(t) : std::nullopt;
    }
    case T::flag:
      if (!j.is_boolean())
        wrong_type(key, j, "true or false");
      return j.get<bool>();
    case T::texts:
      return strings(j, key);
    case T::paths: {
      std::vector<std::string> out;
      for (const auto& dir : strings(j, key))
        out.push_back(path(dir).string());
      return out;
    }
    case T::args:
      return arg_list(j, key, false);
    case T::globals:
      return arg_list(j, key, true);
    case T::expects:
      return expectations(j, key);
    case T::defines:
      return defines(j, key);
    case T::print:
      return print_selection(j, key);
    }
    fail(key, "has a type this reader does not know");
  }

  RunRequest read(const json& doc) const {
    if (!doc.is_object())
      throw usage_error(fmt::format("{}: a run spec is a JSON object", m_name));
    check_known_keys(doc, m_name, "", spec_keys());
    RunRequest r;
    r.base_dir = m_dir;
    for (const RunParameter& p : run_parameters()) {
      if (p.spec_key.empty())
        continue;
      const std::string key(p.spec_key);
      const json* j = &doc;
      // "compile.std": the sections are objects whose keys are checked like the top level's.
      for (std::size_t start = 0, dot = 0; j != nullptr; start = dot + 1) {
        dot = key.find('.', start);
        const std::string part = key.substr(start, dot - start);
        const auto it = j->find(part);
        j = it == j->end() ? nullptr : &*it;
        if (dot == std::string::npos || j == nullptr)
          break;
        const std::string section = key.substr(0, dot);
        if (!j->is_object())
          wrong_type(section, *j, "an object");
        check_known_keys(*j, m_name, section, spec_keys(section));
      }
      if (j != nullptr)
        store(r, p, value(p, *j, key));
    }
    return r;
  }

  std::string expect_text(const json& j, const std::string& key) const {
    if (j.is_array())
      return list_text(j, key);
    if (j.is_number())
      return j.dump();
    if (j.is_string())
      return absolute_at_paths(j.get<std::string>());
    wrong_type(key, j, "a string (\"@ref.npy\", \"f32[20]:iota\") or an array of numbers");
  }

  double non_negative(const json& j, const std::string& key) const {
    double v = number(j, key);
    if (!(v >= 0))
      fail(key, "must be ≥ 0");
    return v;
  }

private:
  std::string m_name;
  fs::path m_dir;
};

} // namespace

std::string compiler_choice(const std::string& text, const std::string& field) {
  if (text == "auto" || text.empty())
    return {};
  if (text == "nvrtc" || text == "clang" || text == "nvcc")
    return text;
  throw usage_error(fmt::format("{} '{}': expected auto, nvrtc, clang or nvcc", field, text));
}

std::optional<double> watchdog_limit(double seconds, std::string_view field) {
  if (!(seconds > 0))
    throw usage_error(fmt::format("{} {}: must be a number of seconds above 0", field, seconds));
  if (!(seconds <= k_max_watchdog_s))
    return std::nullopt;
  return seconds;
}

double tolerance(double value, std::string_view field) {
  if (!(value >= 0))
    throw usage_error(fmt::format("{} {}: must be a number ≥ 0", field, value));
  return value;
}

RunRequest spec_from_json(const json& doc, const std::string& name, const fs::path& dir) {
  return SpecReader(name, dir).read(doc);
}

void check_known_keys(const json& object, const std::string& name, const std::string& where,
                      std::span<const std::string_view> known) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end())
      continue;
    std::string_view best;
    std::size_t best_d = 3; // suggest only close spellings
    for (auto k : known) {
      const std::size_t d = edit_distance(key, k);
      if (d < best_d)
        best_d = d, best = k;
    }
    const std::string path = where.empty() ? key : where + "." + key;
    throw usage_error(fmt::format("{}: unknown key '{}'{}", name, path,
                                  best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best)));
  }
}

RunRequest read_spec(const fs::path& path) {
  const json doc = read_json_file(path, "spec");
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec).parent_path();
  if (ec)
    dir = path.parent_path();
  return spec_from_json(doc, path.string(), dir);
}

} // namespace gpurun
