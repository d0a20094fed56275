#include "backends/cpu/emu/printf.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace gpurun::emu {
namespace {

// A string argument longer than this is cut: a missing NUL must not read device memory forever.
constexpr std::size_t kMaxStringBytes = 1 << 20;

enum class ArgClass { int32, int64, float64, string, pointer };

struct Conversion {
  std::string_view text; ///< the whole specification, from '%' through the conversion letter
  std::string_view flags_width_precision;
  std::string_view length;
  char letter = 0;
};

bool is_flag(char c) {
  return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Parses the conversion starting at format[pos] == '%'. Returns false when the text is no
// complete conversion (the caller then copies it as written); `end` is where copying resumes.
bool parse_conversion(std::string_view format, std::size_t pos, Conversion& c, std::size_t& end,
                      bool& has_star) {
  std::size_t i = pos + 1;
  const std::size_t fwp_start = i;
  has_star = false;
  while (i < format.size() && is_flag(format[i])) {
    ++i;
  }
  while (i < format.size() && (is_digit(format[i]) || format[i] == '*')) {
    has_star = has_star || format[i] == '*';
    ++i;
  }
  if (i < format.size() && format[i] == '.') {
    ++i;
    while (i < format.size() && (is_digit(format[i]) || format[i] == '*')) {
      has_star = has_star || format[i] == '*';
      ++i;
    }
  }
  c.flags_width_precision = format.substr(fwp_start, i - fwp_start);
  const std::size_t length_start = i;
  if (i + 1 < format.size() &&
      ((format[i] == 'h' && format[i + 1] == 'h') || (format[i] == 'l' && format[i + 1] == 'l'))) {
    i += 2;
  } else if (i < format.size() && (format[i] == 'h' || format[i] == 'l' || format[i] == 'z' ||
                                   format[i] == 'j' || format[i] == 't' || format[i] == 'L')) {
    ++i;
  }
  c.length = format.substr(length_start, i - length_start);
  if (i >= format.size()) {
    end = format.size();
    c.text = format.substr(pos);
    return false;
  }
  c.letter = format[i];
  end = i + 1;
  c.text = format.substr(pos, end - pos);
  return true;
}

bool classify(const Conversion& c, ArgClass& cls) {
  const bool wide =
      c.length == "l" || c.length == "ll" || c.length == "z" || c.length == "j" || c.length == "t";
  switch (c.letter) {
  case 'd':
  case 'i':
  case 'u':
  case 'x':
  case 'X':
  case 'o':
    if (c.length == "L") {
      return false;
    }
    cls = wide ? ArgClass::int64 : ArgClass::int32;
    return true;
  case 'c':
    cls = ArgClass::int32;
    return c.length.empty() || c.length == "l";
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    cls = ArgClass::float64;
    return c.length.empty() || c.length == "l" || c.length == "L";
  case 's':
    cls = ArgClass::string;
    return c.length.empty() || c.length == "l";
  case 'p':
    cls = ArgClass::pointer;
    return c.length.empty();
  default:
    return false;
  }
}

std::size_t arg_size(ArgClass cls) {
  return cls == ArgClass::int32 ? 4 : 8;
}

template <typename T> void append_formatted(std::string& out, const std::string& spec, T value) {
  char small[128];
  const int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) {
    return;
  }
  if (static_cast<std::size_t>(n) < sizeof small) {
    out.append(small, static_cast<std::size_t>(n));
    return;
  }
  std::vector<char> big(static_cast<std::size_t>(n) + 1);
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out.append(big.data(), static_cast<std::size_t>(n));
}

// "%.3s" prints at most 3 bytes, and like C it must not read beyond them (no NUL needed).
std::size_t precision_of(std::string_view flags_width_precision) {
  const std::size_t dot = flags_width_precision.find('.');
  if (dot == std::string_view::npos) {
    return kMaxStringBytes;
  }
  std::size_t p = 0;
  for (std::size_t i = dot + 1; i < flags_width_precision.size(); ++i) {
    p = std::min<std::size_t>(p * 10 + static_cast<std::size_t>(flags_width_precision[i] - '0'),
                              kMaxStringBytes);
  }
  return p;
}

std::string read_string(const DeviceReader& read, std::uint64_t address, std::size_t limit) {
  std::string s;
  for (std::uint64_t a = address; s.size() < limit; ++a) {
    char ch = 0;
    read(a, &ch, 1);
    if (ch == '\0') {
      break;
    }
    s.push_back(ch);
  }
  return s;
}

} // namespace

std::string format_device_printf(std::string_view format, const DeviceReader& read_memory,
                                 std::uint64_t args_address) {
  return format_device_printf_call(format, read_memory, args_address).text;
}

DevicePrintfCall format_device_printf_call(std::string_view format, const DeviceReader& read_memory,
                                           std::uint64_t args_address) {
  DevicePrintfCall call;
  call.record_bytes = 16;
  std::string& out = call.text;
  out.reserve(format.size() + 32);
  std::uint64_t offset = 0;
  std::size_t pos = 0;
  while (pos < format.size()) {
    const std::size_t percent = format.find('%', pos);
    if (percent == std::string_view::npos) {
      out.append(format.substr(pos));
      break;
    }
    out.append(format.substr(pos, percent - pos));
    if (percent + 1 < format.size() && format[percent + 1] == '%') {
      out.push_back('%');
      pos = percent + 2;
      continue;
    }
    Conversion c;
    std::size_t end = 0;
    bool has_star = false;
    ArgClass cls = ArgClass::int32;
    if (!parse_conversion(format, percent, c, end, has_star) || has_star || !classify(c, cls)) {
      out.append(c.text);
      pos = end;
      continue;
    }
    pos = end;
    ++call.arguments;
    call.record_bytes += 8;
    const std::size_t size = arg_size(cls);
    offset = (offset + size - 1) / size * size;
    std::uint64_t raw = 0;
    read_memory(args_address + offset, &raw, size);
    offset += size;

    // The host call gets a specification whose length modifier matches the C type passed.
    std::string spec = "%";
    spec += c.flags_width_precision;
    switch (cls) {
    case ArgClass::int32:
      if (c.letter != 'c') {
        spec += c.length; // h, hh or none: the value travels as int
      }
      spec += c.letter;
      append_formatted(out, spec, static_cast<int>(static_cast<std::uint32_t>(raw)));
      break;
    case ArgClass::int64:
      spec += "ll";
      spec += c.letter;
      append_formatted(out, spec, static_cast<long long>(raw));
      break;
    case ArgClass::float64: {
      double d = 0;
      std::memcpy(&d, &raw, sizeof d);
      spec += c.letter;
      append_formatted(out, spec, d);
      break;
    }
    case ArgClass::string: {
      spec += 's';
      const std::string s =
          raw == 0 ? std::string("(null)")
                   : read_string(read_memory, raw, precision_of(c.flags_width_precision));
      call.record_bytes += (s.size() + 1 + 7) / 8 * 8;
      append_formatted(out, spec, s.c_str());
      break;
    }
    case ArgClass::pointer:
      spec += 'p';
      append_formatted(out, spec, reinterpret_cast<void*>(static_cast<std::uintptr_t>(raw)));
      break;
    }
  }
  return call;
}

} // namespace gpurun::emu
