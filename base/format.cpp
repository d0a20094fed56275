#include "base/format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <cxxabi.h>

#include <fmt/format.h>

namespace gpurun {

namespace {

constexpr int k_precision = 8; // NumPy's default print precision

/// Which elements are shown: every element, or the edges of each axis when elided.
struct Shown {
  std::vector<std::size_t> shape;
  std::vector<std::size_t> strides; // in elements, C order
  bool summarize = false;
  std::size_t edge = 3;

  [[nodiscard]] bool elided(std::size_t axis) const { return summarize && 2 * edge < shape[axis]; }

  /// Calls f(flat index) for each shown element, in order.
  template <typename F> void each(F&& f, std::size_t axis = 0, std::size_t offset = 0) const {
    if (axis == shape.size()) {
      f(offset);
      return;
    }
    for (std::size_t i = 0; i < shape[axis]; ++i) {
      if (elided(axis) && i == edge) {
        i = shape[axis] - edge;
        if (i >= shape[axis])
          break;
      }
      each(f, axis + 1, offset + i * strides[axis]);
    }
  }
};

std::string fixed_shortest(double v) {
  char buf[512];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, end);
}

std::string sci_shortest(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  return std::string(buf, end);
}

/// Drops trailing zeros after the point, keeping the point itself ("1.500" → "1.5", "2.000" →
/// "2."), like NumPy's trim='.'.
std::string trim_zeros(std::string s) {
  const auto dot = s.find('.');
  if (dot == std::string::npos)
    return s + ".";
  while (s.size() > dot + 1 && s.back() == '0')
    s.pop_back();
  return s;
}

/// The shortest digits of an element of its own type, as the double they denote.
double shortest_value(DType dtype, const std::byte* p) {
  return std::strtod(format_element(dtype, p).c_str(), nullptr);
}

/// One float in positional form: shortest digits for its type, rounded to at most 8 decimals.
std::pair<std::string, std::string> positional(DType dtype, const std::byte* p) {
  std::string s = fixed_shortest(shortest_value(dtype, p));
  const auto dot = s.find('.');
  if (dot != std::string::npos && s.size() - dot - 1 > k_precision) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", k_precision, load_as_double(dtype, p));
    s = buf;
  }
  s = trim_zeros(s);
  const auto point = s.find('.');
  return {s.substr(0, point), s.substr(point + 1)};
}

struct Scientific {
  std::string int_part, frac_part, exp_sign, exp_digits;
};

Scientific scientific(DType dtype, const std::byte* p) {
  std::string s = sci_shortest(shortest_value(dtype, p));
  auto e = s.find('e');
  const auto dot = s.find('.');
  const std::size_t frac_len = dot == std::string::npos || dot > e ? 0 : e - dot - 1;
  if (frac_len > k_precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", k_precision, load_as_double(dtype, p));
    s = buf;
    e = s.find('e');
  }
  std::string mantissa = trim_zeros(s.substr(0, e));
  const auto point = mantissa.find('.');
  return {mantissa.substr(0, point), mantissa.substr(point + 1), s.substr(e + 1, 1),
          s.substr(e + 2)};
}

/// Formats every shown element to a common width, as NumPy's IntegerFormat/FloatingFormat do.
class ElementFormatter {
public:
  ElementFormatter(const HostBuffer& buffer, const Shown& shown) : m_buffer(buffer) {
    std::vector<std::size_t> indexes;
    shown.each([&](std::size_t i) { indexes.push_back(i); });
    if (is_float(buffer.dtype()))
      prepare_float(indexes);
    else
      prepare_int(indexes);
  }

  [[nodiscard]] std::string operator()(std::size_t index) const {
    const std::byte* p = m_buffer.element(index);
    const DType dtype = m_buffer.dtype();
    if (!is_float(dtype))
      return pad_left(format_element(dtype, p), m_width);
    const double v = load_as_double(dtype, p);
    if (!std::isfinite(v)) {
      const std::string word = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
      return pad_left(word, m_pad_left + m_pad_right + 1);
    }
    if (!m_exp_format) {
      auto [ip, fp] = positional(dtype, p);
      return pad_left(ip, m_pad_left) + "." + fp + std::string(m_pad_right - fp.size(), ' ');
    }
    Scientific s = scientific(dtype, p);
    s.frac_part.append(m_precision - s.frac_part.size(), '0');
    const std::string exp = pad_zeros(s.exp_digits, m_exp_size);
    return pad_left(s.int_part, m_pad_left) + "." + s.frac_part + "e" + s.exp_sign + exp;
  }

private:
  static std::string pad_left(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
  }
  static std::string pad_zeros(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), '0') + s;
  }

  void prepare_int(const std::vector<std::size_t>& indexes) {
    for (auto i : indexes)
      m_width = std::max(m_width, format_element(m_buffer.dtype(), m_buffer.element(i)).size());
  }

  void prepare_float(const std::vector<std::size_t>& indexes) {
    const DType dtype = m_buffer.dtype();
    std::vector<std::size_t> finite;
    bool any_nonfinite = false;
    bool negative_inf = false;
    double max_abs = 0;
    double min_abs = INFINITY;
    for (auto i : indexes) {
      const double v = load_as_double(dtype, m_buffer.element(i));
      if (!std::isfinite(v)) {
        any_nonfinite = true;
        negative_inf = negative_inf || (std::isinf(v) && v < 0);
        continue;
      }
      finite.push_back(i);
      if (v != 0) {
        max_abs = std::max(max_abs, std::fabs(v));
        min_abs = std::min(min_abs, std::fabs(v));
      }
    }
    if (max_abs > 0)
      m_exp_format = max_abs >= 1e8 || min_abs < 1e-4 || max_abs / min_abs > 1000.0;
    if (finite.empty()) {
      m_exp_format = false;
    } else if (m_exp_format) {
      std::size_t exp_len = 0;
      for (auto i : finite) {
        const Scientific s = scientific(dtype, m_buffer.element(i));
        m_pad_left = std::max(m_pad_left, s.int_part.size());
        m_precision = std::max(m_precision, s.frac_part.size());
        exp_len = std::max(exp_len, s.exp_digits.size());
      }
      m_exp_size = exp_len;
      m_pad_right = m_exp_size + 2 + m_precision;
    } else {
      for (auto i : finite) {
        const auto [ip, fp] = positional(dtype, m_buffer.element(i));
        m_pad_left = std::max(m_pad_left, ip.size());
        m_pad_right = std::max(m_pad_right, fp.size());
      }
    }
    if (any_nonfinite) {
      // "nan" and "inf"/"-inf" must fit in the common width too.
      const std::size_t offset = m_pad_right + 1;
      const std::size_t inf_len = negative_inf ? 4 : 3;
      if (3 > offset)
        m_pad_left = std::max(m_pad_left, 3 - offset);
      if (inf_len > offset)
        m_pad_left = std::max(m_pad_left, inf_len - offset);
    }
  }

  const HostBuffer& m_buffer;
  std::size_t m_width = 0; // integers
  bool m_exp_format = false;
  std::size_t m_pad_left = 0;
  std::size_t m_pad_right = 0;
  std::size_t m_precision = 0; // scientific: digits after the point
  std::size_t m_exp_size = 0;  // scientific: exponent digits
};

/// NumPy's _formatArray: nested brackets, one row per line for the last axis, wrapped lines.
class ArrayPrinter {
public:
  ArrayPrinter(const Shown& shown, const ElementFormatter& format)
      : m_shown(shown), m_format(format) {}

  [[nodiscard]] std::string print(std::size_t line_width) const {
    return recurse(0, 0, " ", line_width);
  }

private:
  static void extend(std::string& s, std::string& line, const std::string& word, std::size_t width,
                     const std::string& prefix) {
    // Wrapping a line that holds nothing but the prefix would not help.
    if (line.size() + word.size() > width && line.size() > prefix.size()) {
      while (!line.empty() && line.back() == ' ')
        line.pop_back();
      s += line + "\n";
      line = prefix;
    }
    line += word;
  }

  [[nodiscard]] std::string recurse(std::size_t axis, std::size_t offset,
                                    const std::string& hanging, std::size_t width) const {
    const auto& shape = m_shown.shape;
    if (axis == shape.size())
      return m_format(offset);
    const std::string next_hanging = hanging + " ";
    const std::size_t next_width = width > 0 ? width - 1 : 0;
    const std::size_t n = shape[axis];
    const std::size_t stride = m_shown.strides[axis];
    const bool summary = m_shown.elided(axis);
    const std::size_t leading = summary ? m_shown.edge : 0;
    const std::size_t trailing = summary ? m_shown.edge : n;
    const std::size_t axes_left = shape.size() - axis;
    auto child = [&](std::size_t i) {
      return recurse(axis + 1, offset + i * stride, next_hanging, next_width);
    };

    std::string s;
    if (axes_left == 1) {
      const std::size_t elem_width = width > 0 ? width - 1 : 0; // room for the ']'
      std::string line = hanging;
      for (std::size_t i = 0; i < leading; ++i) {
        extend(s, line, child(i), elem_width, hanging);
        line += " ";
      }
      if (summary) {
        extend(s, line, "...", elem_width, hanging);
        line += " ";
      }
      for (std::size_t i = trailing; i > 1; --i) {
        extend(s, line, child(n - i), elem_width, hanging);
        line += " ";
      }
      extend(s, line, child(n - 1), elem_width, hanging);
      s += line;
    } else {
      const std::string line_sep(axes_left - 1, '\n');
      for (std::size_t i = 0; i < leading; ++i)
        s += hanging + child(i) + line_sep;
      if (summary)
        s.append(hanging).append("...").append(line_sep);
      for (std::size_t i = trailing; i > 1; --i)
        s += hanging + child(n - i) + line_sep;
      s += hanging + child(n - 1);
    }
    std::string out = "[";
    out.append(s, hanging.size());
    out += ']';
    return out;
  }

  const Shown& m_shown;
  const ElementFormatter& m_format;
};

} // namespace

std::string buffer_type_text(const HostBuffer& buffer) {
  return fmt::format("{}[{}]", dtype_name(buffer.dtype()), fmt::join(buffer.shape(), ","));
}

std::string format_buffer(const HostBuffer& buffer, std::size_t edge_items, std::size_t threshold,
                          std::size_t line_width) {
  if (buffer.element_count() == 0)
    return "[]";
  Shown shown;
  shown.shape = buffer.shape();
  shown.strides.assign(shown.shape.size(), 1);
  for (std::size_t axis = shown.shape.size(); axis-- > 1;)
    shown.strides[axis - 1] = shown.strides[axis] * shown.shape[axis];
  shown.summarize = buffer.element_count() > threshold;
  shown.edge = edge_items;
  const ElementFormatter format(buffer, shown);
  if (shown.shape.empty())
    return format(0);
  return ArrayPrinter(shown, format).print(line_width);
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

std::string byte_size(std::uint64_t bytes) {
  if (bytes < 1024)
    return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
  static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1023.95 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
  return fmt::format("{:.{}f} {}", value, decimals, units[unit]);
}

std::string demangled(const std::string& symbol) {
  if (!symbol.starts_with("_Z"))
    return symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : symbol;
}

std::string c_string_literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  if (from.empty())
    return;
  for (auto pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
}

std::string kernel_name(const std::string& symbol) {
  std::string text = demangled(symbol);
  if (text == symbol)
    return symbol;
  // The parameter list: the last balanced "( … )" at the end.
  if (!text.empty() && text.back() == ')') {
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
      if (text[i] == ')')
        ++depth;
      else if (text[i] == '(' && --depth == 0) {
        text.erase(i);
        break;
      }
    }
  }
  // A template's return type comes first ("void saxpy<float>"): the name is the last word
  // outside angle brackets.
  int angle = 0;
  for (std::size_t i = text.size(); i-- > 0;) {
    if (text[i] == '>')
      ++angle;
    else if (text[i] == '<')
      --angle;
    else if (text[i] == ' ' && angle == 0)
      return text.substr(i + 1);
  }
  return text;
}

std::string with_kernel_names(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto is_word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '_' && i + 1 < text.size() && text[i + 1] == 'Z' &&
        (i == 0 || !is_word(text[i - 1]))) {
      std::size_t j = i;
      while (j < text.size() && is_word(text[j]))
        ++j;
      const std::string symbol(text.substr(i, j - i));
      out += kernel_name(symbol);
      i = j;
      continue;
    }
    out += text[i++];
  }
  return out;
}

std::string format_duration(double seconds) {
  const double magnitude = std::fabs(seconds);
  if (magnitude == 0)
    return "0 s";
  if (magnitude < 1e-6)
    return fmt::format("{:.4g} ns", seconds * 1e9);
  if (magnitude < 1e-3)
    return fmt::format("{:.4g} µs", seconds * 1e6);
  if (magnitude < 1)
    return fmt::format("{:.4g} ms", seconds * 1e3);
  return fmt::format("{:.4g} s", seconds);
}

std::string format_count(double value) {
  if (!std::isfinite(value))
    return fmt::format("{}", value);
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    std::string digits = fmt::format("{:.0f}", std::fabs(value));
    for (std::size_t i = digits.size(); i > 3; i -= 3)
      digits.insert(i - 3, ",");
    return (value < 0 ? "-" : "") + digits;
  }
  return format_si(value);
}

std::string format_si(double value) {
  if (!std::isfinite(value))
    return fmt::format("{}", value);
  static constexpr const char* prefixes[] = {"", " k", " M", " G", " T", " P"};
  double v = value;
  std::size_t p = 0;
  while (std::fabs(v) >= 999.5 && p + 1 < std::size(prefixes)) {
    v /= 1000;
    ++p;
  }
  const double a = std::fabs(v);
  const int decimals = p == 0 ? 3 : a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
  return p == 0 ? fmt::format("{:.3g}", v) : fmt::format("{:.{}f}{}", v, decimals, prefixes[p]);
}

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
  }));
}

} // namespace gpurun
