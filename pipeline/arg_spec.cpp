#include "pipeline/arg_spec.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "base/arithmetic.hpp"
#include "base/error.hpp"

namespace gpurun {

namespace {

constexpr std::string_view k_type_list = "f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64";

/// C spellings people type by habit, mapped to ours for the hint.
std::string_view c_type_hint(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 14> k_hints{{
      {"float", "f32"},
      {"double", "f64"},
      {"half", "f16"},
      {"int", "i32"},
      {"uint", "u32"},
      {"unsigned", "u32"},
      {"long", "i64"},
      {"short", "i16"},
      {"char", "i8"},
      {"uchar", "u8"},
      {"byte", "u8"},
      {"bfloat16", "bf16"},
      {"float16", "f16"},
      {"size_t", "u64"},
  }};
  for (const auto& [c, ours] : k_hints)
    if (c == word)
      return ours;
  return {};
}

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

DType lookup_type(std::string_view word, const SourceText& where, std::size_t pos) {
  if (const auto t = parse_dtype(word))
    return *t;
  const std::string_view hint = c_type_hint(word);
  if (!hint.empty())
    throw_at(where, pos,
             fmt::format("unknown dtype '{}' (write {}; types: {})", word, hint, k_type_list));
  throw_at(where, pos, fmt::format("unknown dtype '{}' ({})", word, k_type_list));
}

void check_name(std::string_view name, const SourceText& where) {
  if (name.empty())
    throw_at(where, 0, "empty name before '='");
  for (std::size_t i = 0; i < name.size(); ++i) {
    const bool ok =
        is_ident_char(name[i]) && !(i == 0 && std::isdigit(static_cast<unsigned char>(name[i])));
    if (!ok)
      throw_at(where, i, fmt::format("'{}' is not a valid parameter name", name));
  }
}

std::vector<std::size_t> parse_shape(std::string_view dims, DType dtype, const SourceText& where) {
  std::vector<std::size_t> shape;
  std::size_t start = 0;
  WideInt bytes = static_cast<WideInt>(dtype_size(dtype));
  for (;;) {
    const std::size_t comma = dims.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? dims.size() : comma;
    const SourceText at = where.at(start);
    const WideInt extent = eval_wide_int(dims.substr(start, end - start), at);
    if (extent < 0)
      throw_at(at, 0, fmt::format("negative extent {}", wide_to_string(extent)));
    // 2^48 bytes (256 TiB) is beyond any device; the bound keeps the products exact.
    constexpr WideInt k_max_bytes = static_cast<WideInt>(1) << 48;
    bytes *= extent > k_max_bytes ? k_max_bytes + 1 : extent;
    if (bytes > k_max_bytes)
      throw_at(at, 0, "the buffer would be larger than 2**48 bytes");
    shape.push_back(static_cast<std::size_t>(extent));
    if (comma == std::string_view::npos)
      return shape;
    start = comma + 1;
  }
}

/// Checks that `text` is a valid value for `type` and returns its bytes.
std::vector<std::byte> encode_at(DType type, std::string_view text, const SourceText& where) {
  std::vector<std::byte> bytes(dtype_size(type));
  if (is_float(type)) {
    store_from_double(type, bytes.data(), eval_number(text, where));
  } else {
    const WideInt v = eval_int_for(type, text, where);
    store_from_int64(type, bytes.data(),
                     static_cast<long long>(static_cast<unsigned long long>(v)));
  }
  return bytes;
}

std::string_view trimmed(std::string_view s, std::size_t& lead) {
  lead = 0;
  while (lead < s.size() && std::isspace(static_cast<unsigned char>(s[lead])))
    ++lead;
  std::size_t end = s.size();
  while (end > lead && std::isspace(static_cast<unsigned char>(s[end - 1])))
    --end;
  return s.substr(lead, end - lead);
}

/// `&NAME['+'OFFSET]` (the text starts at '&').
PointerTo parse_pointer(std::string_view text, const SourceText& where) {
  PointerTo p;
  std::size_t end = 1;
  while (end < text.size() && is_ident_char(text[end]))
    ++end;
  p.buffer = std::string(text.substr(1, end - 1));
  if (p.buffer.empty() || std::isdigit(static_cast<unsigned char>(p.buffer[0])))
    throw_at(where, 1, "expected a buffer name after '&' (&x, &x+256)");
  std::size_t rest = end;
  while (rest < text.size() && std::isspace(static_cast<unsigned char>(text[rest])))
    ++rest;
  if (rest == text.size())
    return p;
  if (text[rest] != '+')
    throw_at(where, rest, "expected '+' and a byte offset after the buffer name (&x+256)");
  const SourceText at = where.at(rest + 1);
  const WideInt offset = eval_wide_int(text.substr(rest + 1), at);
  if (offset < 0 || offset > (static_cast<WideInt>(1) << 48))
    throw_at(at, 0, "the byte offset must be between 0 and 2**48");
  p.offset = static_cast<std::uint64_t>(offset);
  return p;
}

/// `{FIELD, …}` (the text starts at '{'): each field at the next multiple of its size.
void parse_record(std::string_view text, const SourceText& where, ArgSpec& spec) {
  if (text.back() != '}')
    throw_at(where, text.size(), "missing '}' at the end of the record");
  std::size_t start = 1;
  std::size_t offset = 0;
  std::size_t align = 1;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() - 1 : comma;
    std::size_t lead = 0;
    const std::string_view field = trimmed(text.substr(start, end - start), lead);
    const SourceText at = where.at(start + lead);
    if (field.empty())
      throw_at(at, 0, "expected a field (TYPE:NUMBER or &NAME) in the record");
    RecordField f;
    std::size_t size = 8;
    if (field[0] == '&') {
      f.pointer = parse_pointer(field, at);
    } else {
      const std::size_t colon = field.find(':');
      if (colon == std::string_view::npos)
        throw_at(at, 0, "a record field is TYPE:NUMBER (i32:5, f32:0.5) or &NAME");
      const DType type = lookup_type(field.substr(0, colon), at, 0);
      f.bytes = encode_at(type, field.substr(colon + 1), at.at(colon + 1));
      size = f.bytes.size();
    }
    offset = (offset + size - 1) / size * size;
    f.offset = offset;
    offset += size;
    align = std::max(align, size);
    spec.fields.push_back(std::move(f));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  spec.record_size = (offset + align - 1) / align * align;
}

} // namespace

ArgSpec parse_arg_spec(std::string_view text, std::string_view field) {
  ArgSpec spec;
  spec.text = std::string(text);
  const SourceText where{field, text, 0};
  if (text.empty())
    throw_whole(where, "empty spec (expected a number, TYPE:NUMBER or TYPE[DIMS][:FILL])");

  std::size_t pos = 0;
  const std::size_t eq = text.find('=');
  const std::size_t structure = text.find_first_of("[:({&");
  if (eq != std::string_view::npos && (structure == std::string_view::npos || eq < structure)) {
    check_name(text.substr(0, eq), where);
    spec.name = std::string(text.substr(0, eq));
    pos = eq + 1;
    if (pos == text.size())
      throw_at(where, pos, "expected a value after '='");
  }

  if (text[pos] == '&') {
    spec.kind = ArgSpec::Kind::pointer;
    spec.pointer = parse_pointer(text.substr(pos), where.at(pos));
    return spec;
  }
  if (text[pos] == '{') {
    spec.kind = ArgSpec::Kind::record;
    parse_record(text.substr(pos), where.at(pos), spec);
    return spec;
  }

  std::size_t word_end = pos;
  while (word_end < text.size() && is_ident_char(text[word_end]))
    ++word_end;
  const std::string_view word = text.substr(pos, word_end - pos);
  const char after = word_end < text.size() ? text[word_end] : '\0';

  if (word == "local" && after == ':') {
    spec.kind = ArgSpec::Kind::local;
    const std::size_t start = word_end + 1;
    const std::string_view value = text.substr(start);
    std::size_t type_end = 0;
    while (type_end < value.size() && is_ident_char(value[type_end]))
      ++type_end;
    std::uint64_t bytes = 0;
    if (type_end < value.size() && value[type_end] == '[' && type_end != 0) {
      const DType type = lookup_type(value.substr(0, type_end), where, start);
      const std::size_t close = value.find(']', type_end);
      if (close == std::string_view::npos || close + 1 != value.size())
        throw_at(where, start + type_end, "expected TYPE[N] with nothing after ']' (local:f32[256])");
      const auto shape = parse_shape(value.substr(type_end + 1, close - type_end - 1), type,
                                     where.at(start + type_end + 1));
      bytes = dtype_size(type);
      for (auto d : shape)
        if (__builtin_mul_overflow(bytes, std::uint64_t{d}, &bytes))
          throw_at(where, start, "more than 2^64 bytes of local memory");
    } else {
      const auto encoded = encode_at(DType::u64, std::string(value), where.at(start));
      std::memcpy(&bytes, encoded.data(), sizeof bytes);
    }
    if (bytes == 0)
      throw_at(where, start, "local memory of 0 bytes (local:BYTES or local:TYPE[N])");
    spec.local_bytes = static_cast<std::size_t>(bytes);
    return spec;
  }

  if (after == '[') {
    if (word.empty())
      throw_at(where, pos, fmt::format("expected a type before '[' ({})", k_type_list));
    spec.kind = ArgSpec::Kind::buffer;
    spec.dtype = lookup_type(word, where, pos);
    const std::size_t close = text.find(']', word_end);
    if (close == std::string_view::npos)
      throw_at(where, text.size(), "missing ']'");
    spec.shape = parse_shape(text.substr(word_end + 1, close - word_end - 1), *spec.dtype,
                             where.at(word_end + 1));
    std::size_t count = 1;
    for (auto d : spec.shape)
      count *= d;
    std::size_t rest = close + 1;
    if (rest < text.size() && text[rest] == '@') {
      std::size_t end = rest + 1;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
      int device = 0;
      const auto [ptr, ec] = std::from_chars(text.data() + rest + 1, text.data() + end, device);
      if (end == rest + 1 || ec != std::errc() || ptr != text.data() + end)
        throw_at(where, rest + 1, "expected a device index after '@' (f32[8]@1:rand(seed=1))");
      spec.device = device;
      rest = end;
    }
    if (rest == text.size()) {
      spec.fill.field = std::string(field);
      spec.fill.origin = spec.text;
    } else if (text[rest] == ':') {
      spec.fill = parse_fill(text.substr(rest + 1), *spec.dtype, count, where.at(rest + 1));
    } else {
      throw_at(where, rest,
               spec.device ? "expected ':' and a fill after the device"
                           : "expected ':' and a fill after ']'");
    }
    return spec;
  }

  spec.kind = ArgSpec::Kind::scalar;
  if (after == ':' && !word.empty()) {
    spec.dtype = lookup_type(word, where, pos);
    spec.scalar_text = std::string(text.substr(word_end + 1));
    (void)encode_at(*spec.dtype, spec.scalar_text, where.at(word_end + 1));
    return spec;
  }
  spec.scalar_text = std::string(text.substr(pos));
  (void)eval_number(spec.scalar_text, where.at(pos));
  return spec;
}

std::pair<std::string, std::string> split_name_value(std::string_view text,
                                                     std::string_view field) {
  const SourceText where{field, text, 0};
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    throw_whole(where, "expected NAME=VALUE");
  const std::string_view name = text.substr(0, eq);
  if (name.empty())
    throw_at(where, 0, "empty name before '='");
  for (std::size_t i = 0; i < name.size(); ++i)
    if (std::isspace(static_cast<unsigned char>(name[i])))
      throw_at(where, i, "blank in the name before '='");
  if (eq + 1 == text.size())
    throw_at(where, eq + 1, "expected a value after '='");
  return {std::string(name), std::string(text.substr(eq + 1))};
}

std::vector<std::byte> encode_scalar(DType type, std::string_view text, std::string_view field) {
  return encode_at(type, text, SourceText{field, text, 0});
}

} // namespace gpurun
