#include "backends/cpu/emu/types.hpp"

#include <array>
#include <utility>

namespace gpurun::emu {

namespace {
constexpr std::array<std::pair<std::string_view, Type>, 20> kNames{{
    {"b8", Type::b8},         {"b16", Type::b16}, {"b32", Type::b32},     {"b64", Type::b64},
    {"b128", Type::b128},     {"u8", Type::u8},   {"u16", Type::u16},     {"u32", Type::u32},
    {"u64", Type::u64},       {"s8", Type::s8},   {"s16", Type::s16},     {"s32", Type::s32},
    {"s64", Type::s64},       {"f16", Type::f16}, {"f16x2", Type::f16x2}, {"bf16", Type::bf16},
    {"bf16x2", Type::bf16x2}, {"f32", Type::f32}, {"f64", Type::f64},     {"pred", Type::pred},
}};
} // namespace

std::optional<Type> parse_type(std::string_view text) noexcept {
  for (const auto& [name, type] : kNames)
    if (name == text)
      return type;
  return std::nullopt;
}

unsigned type_bytes(Type t) noexcept {
  switch (t) {
  case Type::b8:
  case Type::u8:
  case Type::s8:
    return 1;
  case Type::b16:
  case Type::u16:
  case Type::s16:
  case Type::f16:
  case Type::bf16:
    return 2;
  case Type::b32:
  case Type::u32:
  case Type::s32:
  case Type::f32:
  case Type::f16x2:
  case Type::bf16x2:
    return 4;
  case Type::b64:
  case Type::u64:
  case Type::s64:
  case Type::f64:
    return 8;
  case Type::b128:
    return 16;
  case Type::pred:
    return 1;
  case Type::none:
    return 0;
  }
  return 0;
}

bool is_signed(Type t) noexcept {
  return t == Type::s8 || t == Type::s16 || t == Type::s32 || t == Type::s64;
}

bool is_float(Type t) noexcept {
  return t == Type::f16 || t == Type::f16x2 || t == Type::bf16 || t == Type::bf16x2 ||
         t == Type::f32 || t == Type::f64;
}

} // namespace gpurun::emu
