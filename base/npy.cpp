#include "base/npy.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/read_file.hpp"

namespace gpurun {

namespace {

constexpr std::string_view k_magic = "\x93NUMPY";
constexpr std::size_t k_align = 64;         // NumPy ≥ 1.14 pads headers to 64 bytes
constexpr std::size_t k_growth_digits = 21; // NumPy ≥ 1.23 leaves room to grow the shape

/// The header fields we need, parsed from the Python dict literal.
struct NpyHeader {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::size_t>> shape;
};

/// A small reader for the dict literal NumPy writes: string keys, values that are strings,
/// True/False, or tuples of integers.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string& name) : m_text(text), m_name(name) {}

  NpyHeader parse() {
    NpyHeader h;
    expect('{');
    for (;;) {
      skip_space();
      if (consume('}'))
        break;
      const std::string key = quoted();
      expect(':');
      skip_space();
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"')
          fail("structured dtypes are not supported (descr must be a simple type such as '<f4')");
        h.descr = quoted();
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
      } else if (key == "shape") {
        h.shape = tuple();
      } else {
        skip_value();
      }
      skip_space();
      if (consume('}'))
        break;
      expect(',');
    }
    return h;
  }

private:
  [[noreturn]] void fail(std::string_view what) const {
    throw usage_error(fmt::format("{}: bad .npy header: {}", m_name, what));
  }

  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
  }
  [[nodiscard]] char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++m_pos;
    return true;
  }
  void expect(char c) {
    skip_space();
    if (!consume(c))
      fail(fmt::format("expected '{}' at byte {} of the header", c, m_pos));
  }

  std::string quoted() {
    skip_space();
    const char q = peek();
    if (q != '\'' && q != '"')
      fail(fmt::format("expected a quoted key at byte {}", m_pos));
    const std::size_t end = m_text.find(q, m_pos + 1);
    if (end == std::string_view::npos)
      fail("unterminated string");
    std::string s(m_text.substr(m_pos + 1, end - m_pos - 1));
    m_pos = end + 1;
    return s;
  }

  bool boolean() {
    if (m_text.substr(m_pos, 4) == "True")
      return m_pos += 4, true;
    if (m_text.substr(m_pos, 5) == "False")
      return m_pos += 5, false;
    fail("fortran_order must be True or False");
  }

  std::vector<std::size_t> tuple() {
    if (!consume('('))
      fail("shape must be a tuple");
    std::vector<std::size_t> dims;
    for (;;) {
      skip_space();
      if (consume(')'))
        return dims;
      std::size_t v = 0;
      const std::size_t start = m_pos;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (__builtin_mul_overflow(v, std::size_t{10}, &v) ||
            __builtin_add_overflow(v, static_cast<std::size_t>(peek() - '0'), &v))
          fail("shape dimension too large");
        ++m_pos;
      }
      if (m_pos == start)
        fail("shape must hold non-negative integers");
      consume('L'); // Python 2 long literals in files from old NumPy
      dims.push_back(v);
      skip_space();
      if (!consume(',') && peek() != ')')
        fail("expected ',' or ')' in shape");
    }
  }

  void skip_value() {
    int depth = 0;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == '\'' || c == '"') {
        quoted();
        continue;
      }
      if (c == '(' || c == '[' || c == '{')
        ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (depth == 0)
          return;
        --depth;
      }
      if (c == ',' && depth == 0)
        return;
      ++m_pos;
    }
  }

  std::string_view m_text;
  const std::string& m_name;
  std::size_t m_pos = 0;
};

DType dtype_from_descr(const std::string& descr, const std::string& name) {
  if (descr.size() < 3)
    throw usage_error(fmt::format("{}: unsupported .npy dtype '{}'", name, descr));
  const char order = descr[0];
  const std::string kind = descr.substr(1);
  const bool one_byte = kind.size() == 2 && kind[1] == '1';
  if (order == '>' && !one_byte)
    throw usage_error(fmt::format(
        "{}: big-endian .npy data ('{}') is not supported; save it as '<{}' (little-endian)", name,
        descr, kind));
  if (order != '<' && order != '|' && order != '=' && order != '>')
    throw usage_error(fmt::format("{}: unsupported .npy dtype '{}'", name, descr));
  static const std::pair<std::string_view, DType> k_kinds[] = {
      {"f2", DType::f16}, {"f4", DType::f32}, {"f8", DType::f64}, {"i1", DType::i8},
      {"i2", DType::i16}, {"i4", DType::i32}, {"i8", DType::i64}, {"u1", DType::u8},
      {"u2", DType::u16}, {"u4", DType::u32}, {"u8", DType::u64}, {"b1", DType::u8},
  };
  for (const auto& [k, t] : k_kinds)
    if (kind == k)
      return t;
  throw usage_error(fmt::format("{}: unsupported .npy dtype '{}' (supported: f2 f4 f8 i1 i2 i4 "
                                "i8 u1 u2 u4 u8 b1, little-endian)",
                                name, descr));
}

std::uint32_t read_le(std::span<const std::byte> bytes, std::size_t at, std::size_t width) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < width; ++i)
    v |= static_cast<std::uint32_t>(bytes[at + i]) << (8 * i);
  return v;
}

std::string shape_literal(const std::vector<std::size_t>& shape) {
  if (shape.size() == 1)
    return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

} // namespace

HostBuffer parse_npy(std::span<const std::byte> file, const std::string& name) {
  if (file.size() < 10 || std::memcmp(file.data(), k_magic.data(), k_magic.size()) != 0)
    throw usage_error(fmt::format("{}: not a .npy file (no \\x93NUMPY magic)", name));
  const auto major = static_cast<int>(file[6]);
  const auto minor = static_cast<int>(file[7]);
  if (major < 1 || major > 3)
    throw usage_error(fmt::format("{}: unsupported .npy format version {}.{}", name, major, minor));
  const std::size_t len_width = major == 1 ? 2 : 4;
  if (file.size() < 8 + len_width)
    throw usage_error(fmt::format("{}: truncated .npy header", name));
  const std::size_t header_len = read_le(file, 8, len_width);
  const std::size_t data_start = 8 + len_width + header_len;
  if (file.size() < data_start)
    throw usage_error(fmt::format("{}: truncated .npy header", name));
  // Version 3.0 only changes the header's encoding to UTF-8; the keys we read are ASCII.
  const std::string_view header(reinterpret_cast<const char*>(file.data()) + 8 + len_width,
                                header_len);
  const NpyHeader h = HeaderParser(header, name).parse();
  if (!h.descr || !h.shape)
    throw usage_error(fmt::format("{}: bad .npy header: missing 'descr' or 'shape'", name));
  if (h.fortran_order.value_or(false))
    throw usage_error(fmt::format(
        "{}: Fortran-ordered .npy arrays are not supported; save with np.ascontiguousarray", name));
  const DType dtype = dtype_from_descr(*h.descr, name);
  // The header is checked against the data that is there before anything is allocated: a shape
  // whose product overflows, or that claims more than the file holds, is refused.
  const std::size_t data_bytes = file.size() - data_start;
  std::size_t needed = dtype_size(dtype);
  for (const std::size_t d : *h.shape)
    if (__builtin_mul_overflow(needed, d, &needed))
      throw usage_error(fmt::format("{}: .npy shape {} of '{}' overflows 64 bits", name,
                                    shape_literal(*h.shape), *h.descr));
  if (data_bytes != needed)
    throw usage_error(fmt::format("{}: .npy data has {} bytes, shape {} of '{}' needs {}", name,
                                  data_bytes, shape_literal(*h.shape), *h.descr, needed));
  HostBuffer buffer(dtype, *h.shape);
  if (buffer.size_bytes() > 0) // a zero-element buffer has no storage
    std::memcpy(buffer.data(), file.data() + data_start, buffer.size_bytes());
  return buffer;
}

HostBuffer read_npy(const std::filesystem::path& path) {
  std::string why;
  const auto raw = read_file(path, &why, k_no_read_limit);
  if (!raw)
    throw usage_error(fmt::format("{}: cannot read the file: {}", path.string(), why));
  return parse_npy(std::as_bytes(std::span(raw->data(), raw->size())), path.string());
}

std::vector<std::byte> encode_npy(const HostBuffer& buffer) {
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   numpy_descr(buffer.dtype()), shape_literal(buffer.shape()));
  // As NumPy does: room for the first dimension to grow to 21 digits, then spaces and '\n' so
  // the data starts on a 64-byte boundary (1 to 64 spaces), version 2.0 only when needed.
  if (!buffer.shape().empty())
    header.append(k_growth_digits - std::to_string(buffer.shape()[0]).size(), ' ');
  std::size_t len_width = 2;
  auto padding = [&] {
    return k_align - (k_magic.size() + 2 + len_width + header.size() + 1) % k_align;
  };
  if (header.size() + padding() + 1 > 0xffff)
    len_width = 4;
  header.append(padding(), ' ');
  header.push_back('\n');

  std::vector<std::byte> out;
  out.reserve(k_magic.size() + 2 + len_width + header.size() + buffer.size_bytes());
  for (char c : k_magic)
    out.push_back(static_cast<std::byte>(c));
  out.push_back(std::byte{static_cast<unsigned char>(len_width == 2 ? 1 : 2)});
  out.push_back(std::byte{0});
  for (std::size_t i = 0; i < len_width; ++i)
    out.push_back(static_cast<std::byte>((header.size() >> (8 * i)) & 0xff));
  for (char c : header)
    out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), buffer.bytes().begin(), buffer.bytes().end());
  return out;
}

void write_npy(const std::filesystem::path& path, const HostBuffer& buffer) {
  write_file_atomic(path, encode_npy(buffer));
}

} // namespace gpurun
