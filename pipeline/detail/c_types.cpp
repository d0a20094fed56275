#include "pipeline/detail/c_types.hpp"

#include <map>
#include <string_view>

namespace gpurun::detail {
namespace {

struct Named {
  std::string_view name;
  DType element;
  std::size_t element_size;
};

// CUDA's vector types are these scalars with a width suffix (float4, uint2, longlong2 …).
constexpr Named k_vector_bases[] = {
    {"char", DType::i8, 1},       {"uchar", DType::u8, 1},  {"short", DType::i16, 2},
    {"ushort", DType::u16, 2},    {"int", DType::i32, 4},   {"uint", DType::u32, 4},
    {"long", DType::i64, 8},      {"ulong", DType::u64, 8}, {"longlong", DType::i64, 8},
    {"ulonglong", DType::u64, 8}, {"float", DType::f32, 4}, {"double", DType::f64, 8},
};

constexpr Named k_named[] = {
    {"float", DType::f32, 4},         {"double", DType::f64, 8},
    {"__half", DType::f16, 2},        {"half", DType::f16, 2},
    {"_Float16", DType::f16, 2},      {"__nv_bfloat16", DType::bf16, 2},
    {"nv_bfloat16", DType::bf16, 2},  {"__bf16", DType::bf16, 2},
    {"hip_bfloat16", DType::bf16, 2}, {"__hip_bfloat16", DType::bf16, 2},
    {"bool", DType::u8, 1},           {"size_t", DType::u64, 8},
    {"ptrdiff_t", DType::i64, 8},     {"ssize_t", DType::i64, 8},
    {"intptr_t", DType::i64, 8},      {"uintptr_t", DType::u64, 8},
    {"int8_t", DType::i8, 1},         {"int16_t", DType::i16, 2},
    {"int32_t", DType::i32, 4},       {"int64_t", DType::i64, 8},
    {"uint8_t", DType::u8, 1},        {"uint16_t", DType::u16, 2},
    {"uint32_t", DType::u32, 4},      {"uint64_t", DType::u64, 8},
    {"uint", DType::u32, 4},          {"ushort", DType::u16, 2},
    {"ulong", DType::u64, 8},         {"uchar", DType::u8, 1},
};

const std::map<std::string, CType, std::less<>>& named_types() {
  static const auto table = [] {
    std::map<std::string, CType, std::less<>> t;
    for (const auto& n : k_named)
      t[std::string(n.name)] = {n.element, n.element_size, 1};
    for (const auto& b : k_vector_bases) {
      // 8 and 16 wide: OpenCL C's (float8, uchar16); CUDA's stop at 4.
      for (int w : {1, 2, 3, 4, 8, 16}) {
        t[std::string(b.name) + std::to_string(w)] = {b.element, b.element_size * w, w};
      }
    }
    t["__half2"] = t["half2"] = {DType::f16, 4, 2};
    t["__nv_bfloat162"] = t["nv_bfloat162"] = {DType::bf16, 4, 2};
    return t;
  }();
  return table;
}

std::optional<CType> integer_type(const std::vector<std::string>& words) {
  int unsigned_count = 0, signed_count = 0, short_count = 0, long_count = 0, char_count = 0,
      int_count = 0;
  for (const auto& w : words) {
    if (w == "unsigned")
      ++unsigned_count;
    else if (w == "signed")
      ++signed_count;
    else if (w == "short")
      ++short_count;
    else if (w == "long")
      ++long_count;
    else if (w == "char")
      ++char_count;
    else if (w == "int")
      ++int_count;
    else
      return std::nullopt;
  }
  if (unsigned_count + signed_count > 1 || char_count > 1 || int_count > 1 || long_count > 2 ||
      short_count > 1 || (short_count != 0 && long_count != 0) ||
      (char_count != 0 && (short_count + long_count + int_count) != 0)) {
    return std::nullopt;
  }
  const bool is_unsigned = unsigned_count != 0;
  if (char_count != 0)
    return CType{is_unsigned ? DType::u8 : DType::i8, 1};
  if (short_count != 0)
    return CType{is_unsigned ? DType::u16 : DType::i16, 2};
  if (long_count != 0)
    return CType{is_unsigned ? DType::u64 : DType::i64, 8};
  return CType{is_unsigned ? DType::u32 : DType::i32, 4};
}

} // namespace

std::optional<CType> resolve_c_type(const std::vector<std::string>& words) {
  if (words.empty())
    return std::nullopt;
  if (words.size() == 1) {
    std::string_view w = words[0];
    if (w.starts_with("::"))
      w.remove_prefix(2);
    if (w.starts_with("std::"))
      w.remove_prefix(5);
    const auto& table = named_types();
    if (auto it = table.find(w); it != table.end())
      return it->second;
  }
  return integer_type(words);
}

bool is_type_keyword(const std::string& word) {
  static const std::map<std::string, int, std::less<>> keywords = {
      {"void", 0},  {"bool", 0},     {"char", 0},         {"short", 0},      {"int", 0},
      {"long", 0},  {"float", 0},    {"double", 0},       {"signed", 0},     {"unsigned", 0},
      {"const", 0}, {"volatile", 0}, {"struct", 0},       {"class", 0},      {"union", 0},
      {"enum", 0},  {"typename", 0}, {"__restrict__", 0}, {"__restrict", 0}, {"restrict", 0},
  };
  return keywords.contains(word);
}

} // namespace gpurun::detail
