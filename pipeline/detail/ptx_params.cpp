// find_ptx_kernels (declared in pipeline/signature.hpp): PTX has no C types, so a kernel's signature
// is its `.entry` parameter list.
#include <fmt/format.h>

#include "pipeline/detail/c_lexer.hpp"
#include "pipeline/signature.hpp"

namespace gpurun {
namespace {

using detail::Token;
using detail::TokenKind;

struct PtxType {
  std::string_view name;
  DType element;
  std::size_t size;
};

constexpr PtxType k_ptx_types[] = {
    {"u8", DType::u8, 1},   {"s8", DType::i8, 1},     {"b8", DType::u8, 1},
    {"u16", DType::u16, 2}, {"s16", DType::i16, 2},   {"b16", DType::u16, 2},
    {"f16", DType::f16, 2}, {"bf16", DType::bf16, 2}, {"u32", DType::u32, 4},
    {"s32", DType::i32, 4}, {"b32", DType::u32, 4},   {"f32", DType::f32, 4},
    {"u64", DType::u64, 8}, {"s64", DType::i64, 8},   {"b64", DType::u64, 8},
    {"f64", DType::f64, 8},
};

const PtxType* ptx_type(std::string_view name) {
  for (const auto& t : k_ptx_types) {
    if (t.name == name)
      return &t;
  }
  return nullptr;
}

bool is_punct(const Token& t, std::string_view p) {
  return t.kind == TokenKind::punct && t.text == p;
}

KernelParam parse_ptx_param(const std::vector<Token>& toks, std::size_t index) {
  KernelParam p;
  const PtxType* type = nullptr;
  bool explicit_pointer = false;
  std::size_t array = 1;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const Token& t = toks[i];
    bool directive = i > 0 && is_punct(toks[i - 1], ".");
    if (t.kind == TokenKind::identifier && directive) {
      if (t.text == "ptr")
        explicit_pointer = true;
      else if (const PtxType* pt = ptx_type(t.text); pt != nullptr && type == nullptr)
        type = pt;
    } else if (t.kind == TokenKind::identifier) {
      p.name = t.text;
    } else if (is_punct(t, "[") && i + 1 < toks.size() && toks[i + 1].kind == TokenKind::number) {
      array = std::stoull(toks[i + 1].text);
    }
  }
  if (p.name.empty())
    p.name = fmt::format("p{}", index);
  if (type == nullptr)
    return p;
  p.type.c_type = "." + std::string(type->name) + (array > 1 ? fmt::format("[{}]", array) : "");
  p.type.scalar_size = type->size * array;
  if (array > 1)
    return p; // an aggregate passed by value (.b8 name[16])
  p.type.element = type->element;
  p.type.is_pointer = explicit_pointer;
  p.type.pointer_or_integer = !explicit_pointer && type->size == 8 && type->element != DType::f64;
  if (explicit_pointer)
    p.type.scalar_size = 0; // the pointee's type is not in the PTX
  return p;
}

} // namespace

std::vector<KernelSignature> find_ptx_kernels(std::string_view ptx) {
  const std::vector<Token> t = detail::tokenize(ptx);
  std::vector<KernelSignature> out;
  for (std::size_t i = 1; i + 1 < t.size(); ++i) {
    if (!(is_punct(t[i - 1], ".") && t[i].kind == TokenKind::identifier && t[i].text == "entry") ||
        t[i + 1].kind != TokenKind::identifier) {
      continue;
    }
    KernelSignature sig;
    sig.name = t[i + 1].text;
    sig.line = t[i + 1].line;
    sig.extern_c = true; // PTX names are already the symbols
    sig.from_ptx = true;
    std::size_t j = i + 2;
    if (j < t.size() && is_punct(t[j], "(")) {
      std::vector<Token> current;
      for (++j; j < t.size() && !is_punct(t[j], ")"); ++j) {
        if (is_punct(t[j], ",")) {
          sig.params.push_back(parse_ptx_param(current, sig.params.size()));
          current.clear();
        } else {
          current.push_back(t[j]);
        }
      }
      if (!current.empty())
        sig.params.push_back(parse_ptx_param(current, sig.params.size()));
    }
    out.push_back(std::move(sig));
    i = j;
  }
  return out;
}

} // namespace gpurun
