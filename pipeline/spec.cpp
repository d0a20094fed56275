#include "pipeline/spec.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/dims.hpp"
#include "base/error.hpp"
#include "base/expr.hpp"
#include "base/json_read.hpp"
#include "base/json_text.hpp"

namespace gpurun {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view k_top_keys[] = {
    "source", "kernel",  "compile", "grid",   "block", "shared_bytes",
    "args",   "globals", "expect",  "rtol",   "atol",  "print",
    "repeat", "timeout", "backend", "device", "save",  "description"};
constexpr std::string_view k_compile_keys[] = {"defines", "include_dirs", "std",
                                               "arch",    "options",      "compiler"};
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

  void read_compile(const json& j, CompileOptions& c) const {
    if (!j.is_object())
      wrong_type("compile", j, "an object");
    check_keys(j, "compile", k_compile_keys);
    if (j.contains("defines")) {
      const json& d = j["defines"];
      if (d.is_object()) {
        for (const auto& [name, value] : d.items()) {
          if (value.is_null())
            c.defines.push_back(name);
          else
            c.defines.push_back(name + "=" +
                                (value.is_string() ? value.get<std::string>() : json_text(value)));
        }
      } else {
        c.defines = strings(d, "compile.defines");
      }
    }
    if (j.contains("include_dirs")) {
      for (const auto& dir : strings(j["include_dirs"], "compile.include_dirs")) {
        c.include_dirs.push_back(path(dir).string());
      }
    }
    if (j.contains("std"))
      c.std_version = string(j["std"], "compile.std");
    if (j.contains("arch"))
      c.arch = string(j["arch"], "compile.arch");
    if (j.contains("options"))
      c.extra = strings(j["options"], "compile.options");
    if (j.contains("compiler"))
      c.compiler = compiler_choice(string(j["compiler"], "compile.compiler"),
                                   fmt::format("{}: compile.compiler", m_name));
  }

  RunRequest read(const json& doc) const {
    if (!doc.is_object())
      throw usage_error(fmt::format("{}: a run spec is a JSON object", m_name));
    check_keys(doc, "", k_top_keys);
    RunRequest r;
    r.base_dir = m_dir;
    if (doc.contains("source"))
      r.source = path(string(doc["source"], "source"));
    if (doc.contains("kernel"))
      r.kernel = string(doc["kernel"], "kernel");
    if (doc.contains("compile"))
      read_compile(doc["compile"], r.compile);
    if (doc.contains("grid"))
      r.grid = dims(doc["grid"], "grid");
    if (doc.contains("block"))
      r.block = dims(doc["block"], "block");
    if (doc.contains("shared_bytes")) {
      long long v = integer(doc["shared_bytes"], "shared_bytes");
      if (v < 0)
        fail("shared_bytes", "must be ≥ 0");
      r.shared_bytes = static_cast<std::size_t>(v);
    }
    if (doc.contains("args"))
      r.args = arg_list(doc["args"], "args", false);
    if (doc.contains("globals"))
      r.globals = arg_list(doc["globals"], "globals", true);
    if (doc.contains("expect")) {
      const json& e = doc["expect"];
      if (!e.is_object())
        wrong_type("expect", e, "an object (buffer name → expected values)");
      for (const auto& [name, value] : e.items()) {
        r.expects.push_back(name + "=" + expect_text(value, "expect." + name));
      }
    }
    if (doc.contains("rtol"))
      r.rtol = non_negative(doc["rtol"], "rtol");
    if (doc.contains("atol"))
      r.atol = non_negative(doc["atol"], "atol");
    if (doc.contains("print")) {
      const json& p = doc["print"];
      if (p.is_array()) {
        std::string joined;
        for (const auto& n : strings(p, "print"))
          joined += (joined.empty() ? "" : ",") + n;
        r.print = joined.empty() ? "none" : joined;
      } else {
        r.print = string(p, "print");
      }
    }
    if (doc.contains("repeat")) {
      long long v = integer(doc["repeat"], "repeat");
      if (v < 1 || v > 1000000000)
        fail("repeat", "must be between 1 and 1000000000");
      r.repeat = static_cast<int>(v);
    }
    if (doc.contains("timeout")) {
      double t = number(doc["timeout"], "timeout");
      if (!(t > 0))
        fail("timeout", "must be > 0 seconds");
      r.timeout_s = t <= k_max_watchdog_s ? std::optional(t) : std::nullopt;
    }
    if (doc.contains("backend"))
      r.backend = string(doc["backend"], "backend");
    if (doc.contains("device")) {
      long long v = integer(doc["device"], "device");
      if (v < 0 || v > 1 << 20)
        fail("device", "must be a device index ≥ 0");
      r.device = static_cast<int>(v);
    }
    if (doc.contains("save"))
      r.save_dir = path(string(doc["save"], "save"));
    if (doc.contains("description"))
      (void)string(doc["description"], "description");
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

std::span<const std::string_view> run_spec_keys() {
  return k_top_keys;
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

void apply_overrides(RunRequest& request, const RunOverrides& o) {
  auto take = [](auto& field, const auto& given) {
    if (given)
      field = *given;
  };
  auto append = [](std::vector<std::string>& to, const std::vector<std::string>& more) {
    to.insert(to.end(), more.begin(), more.end());
  };
  take(request.source, o.source);
  if (o.kernel)
    request.kernel = *o.kernel;
  if (o.grid)
    request.grid = *o.grid;
  if (o.block)
    request.block = *o.block;
  take(request.shared_bytes, o.shared_bytes);
  take(request.args, o.args);
  take(request.globals, o.globals);
  take(request.expects, o.expects);
  if (o.rtol)
    request.rtol = tolerance(*o.rtol, "--rtol");
  if (o.atol)
    request.atol = tolerance(*o.atol, "--atol");
  take(request.print, o.print);
  if (o.save_dir)
    request.save_dir = *o.save_dir;
  take(request.repeat, o.repeat);
  if (o.timeout_s)
    request.timeout_s = watchdog_limit(*o.timeout_s, "--timeout");
  take(request.backend, o.backend);
  take(request.device, o.device);
  take(request.compile.std_version, o.std_version);
  take(request.compile.arch, o.arch);
  take(request.compile.compiler, o.compiler);
  append(request.compile.defines, o.more_defines);
  append(request.compile.include_dirs, o.more_include_dirs);
  append(request.compile.extra, o.more_options);
  if (!o.base_dir.empty())
    request.base_dir = o.base_dir;
}

} // namespace gpurun
