#include "backends/cpu/ptx/declaration.hpp"

#include <limits>

#include <fmt/format.h>

#include "backends/cpu/ptx/literals.hpp"
#include "backends/kit/ptx_entries.hpp"

namespace gpurun::ptx {
namespace {

constexpr int k_max_array_dimensions = 16;
constexpr long long k_max_alignment = 1 << 16;
/// The largest variable a module may declare, and the largest it may initialize (its initial
/// bytes are held in the module).
constexpr std::size_t k_max_variable_bytes = std::size_t{1} << 40;
constexpr std::size_t k_max_initialized_bytes = std::size_t{1} << 28;

bool is_float_type(std::string_view type) {
  return type == "f32" || type == "f64" || type == "f16" || type == "bf16";
}

// `value` in `bytes` little-endian bytes; a .b128 element's upper half is zero.
void append_le(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) {
    out.push_back(i < 8 ? static_cast<std::uint8_t>(value >> (8 * i)) : 0);
  }
}

// One initializer value encoded as the declaration's element type.
void parse_init_value(TokenCursor& in, Variable& v, std::size_t element) {
  const bool negative = in.accept('-');
  const Token t = in.peek();
  if (t.kind == Token::Kind::identifier) {
    if (negative) {
      in.fail("unexpected '-' before a symbol in initializer");
    }
    in.take();
    std::string symbol(t.text);
    if (t.text == "generic") {
      in.expect('(', "after generic");
      symbol = std::string(in.expect_identifier("a symbol inside generic( )").text);
      in.expect(')', "closing generic(");
    }
    long long addend = 0;
    if (in.peek().is_punct('+') || in.peek().is_punct('-')) {
      const bool minus = in.take().is_punct('-');
      addend = in.expect_integer("an offset after the symbol");
      if (addend == std::numeric_limits<long long>::min()) {
        in.fail("offset after the symbol out of range");
      }
      addend = minus ? -addend : addend;
    }
    v.init_symbols.emplace_back(v.init.size(), symbol);
    append_le(v.init, static_cast<std::uint64_t>(addend), element);
    return;
  }
  std::uint64_t bits = 0;
  switch (t.kind) {
  case Token::Kind::integer: {
    const auto value = parse_integer_literal(t.text);
    if (!value) {
      in.fail("malformed integer in initializer");
    }
    if (v.type == "f32") {
      bits = f32_bits(static_cast<float>(negative ? -static_cast<double>(*value)
                                                  : static_cast<double>(*value)));
    } else if (v.type == "f64") {
      bits = f64_bits(negative ? -static_cast<double>(*value) : static_cast<double>(*value));
    } else {
      bits = negative ? ~*value + 1 : *value;
    }
    break;
  }
  case Token::Kind::decimal_float:
  case Token::Kind::f32_bits:
  case Token::Kind::f64_bits: {
    double value = 0;
    if (t.kind == Token::Kind::decimal_float) {
      const auto parsed = parse_decimal_float(t.text);
      if (!parsed) {
        in.fail("malformed float in initializer");
      }
      value = *parsed;
    } else if (t.kind == Token::Kind::f32_bits) {
      value = f32_from_bits(static_cast<std::uint32_t>(parse_float_bits(t.text)));
    } else {
      value = f64_from_bits(parse_float_bits(t.text));
    }
    value = negative ? -value : value;
    if (v.type == "f32") {
      bits = f32_bits(static_cast<float>(value));
    } else if (v.type == "f64") {
      bits = f64_bits(value);
    } else if (!is_float_type(v.type) && (t.kind != Token::Kind::decimal_float)) {
      // Exact-bits literals in an untyped (.b32/.b64) initializer keep their bits.
      bits = parse_float_bits(t.text);
    } else {
      in.fail(fmt::format("float initializer for a .{} variable", v.type));
    }
    break;
  }
  default:
    in.fail("expected an initializer value");
  }
  in.take();
  append_le(v.init, bits, element);
}

void parse_name_and_initializer(TokenCursor& in, Variable& v);

// `depth`: the braces around this list; one level per array dimension.
void parse_init_list(TokenCursor& in, Variable& v, std::size_t element, int depth = 0) {
  if (in.accept('{')) {
    if (depth >= k_max_array_dimensions) {
      in.fail("initializer lists nested too deeply");
    }
    if (!in.peek().is_punct('}')) {
      do {
        parse_init_list(in, v, element, depth + 1);
      } while (in.accept(','));
    }
    in.expect('}', "closing the initializer list");
    return;
  }
  parse_init_value(in, v, element);
}

} // namespace

bool is_type_directive(std::string_view directive) {
  return directive.size() > 1 && directive[0] == '.' &&
         kit::ptx_type_size(directive.substr(1)) != 0;
}

Variable parse_variable(TokenCursor& in, StateSpace space, int line) {
  Variable v;
  v.space = space;
  v.line = line;
  std::size_t explicit_align = 0;
  while (in.peek().kind == Token::Kind::directive) {
    const Token d = in.take();
    if (d.text == ".align") {
      const long long align = in.expect_integer("an alignment after .align");
      if (align <= 0 || align > k_max_alignment || (align & (align - 1)) != 0) {
        in.fail(d, fmt::format("alignment must be a power of two up to {}", k_max_alignment));
      }
      explicit_align = static_cast<std::size_t>(align);
    } else if (d.text == ".v2" || d.text == ".v4" || d.text == ".v8") {
      v.vector_width = d.text[2] - '0';
    } else if (d.text == ".ptr") {
      v.is_ptr = true;
    } else if (v.is_ptr && (d.text == ".global" || d.text == ".shared" || d.text == ".const" ||
                            d.text == ".local")) {
      // .ptr's pointee space only documents intent; the value is still a 64-bit address.
    } else if (d.text == ".attribute") {
      in.expect('(', "after .attribute");
      while (!in.at_end() && !in.peek().is_punct(')')) {
        in.take();
      }
      in.expect(')', "closing .attribute(");
    } else if (is_type_directive(d.text)) {
      if (!v.type.empty()) {
        in.fail(d, "second type in declaration");
      }
      v.type = std::string(d.text.substr(1));
    } else {
      in.fail(d, "unexpected directive in declaration");
    }
  }
  if (v.type.empty()) {
    in.fail("expected a type in declaration");
  }
  v.align = explicit_align != 0
                ? explicit_align
                : kit::ptx_type_size(v.type) * static_cast<std::size_t>(v.vector_width);
  parse_name_and_initializer(in, v);
  return v;
}

Variable parse_next_variable(TokenCursor& in, const Variable& first) {
  Variable v;
  v.space = first.space;
  v.type = first.type;
  v.align = first.align;
  v.vector_width = first.vector_width;
  v.is_ptr = first.is_ptr;
  v.is_extern = first.is_extern;
  v.line = in.peek().line;
  parse_name_and_initializer(in, v);
  return v;
}

namespace {

void parse_name_and_initializer(TokenCursor& in, Variable& v) {
  v.name = std::string(in.expect_identifier("a variable name").text);
  int dimensions = 0;
  while (in.accept('[')) {
    if (++dimensions > k_max_array_dimensions) {
      in.fail("too many array dimensions");
    }
    if (in.accept(']')) {
      v.array_size = v.array_size.value_or(1) * 0;
      continue;
    }
    const long long n = in.expect_integer("an array size");
    if (n < 0) {
      in.fail("negative array size");
    }
    in.expect(']', "after the array size");
    std::size_t count = v.array_size.value_or(1);
    if (__builtin_mul_overflow(count, static_cast<std::size_t>(n), &count)) {
      in.fail("array size out of range");
    }
    v.array_size = count;
  }
  // Beyond this no state space of a device holds a variable; the bound also keeps every size
  // and offset computed from it within 64 bits.
  const std::size_t element = kit::ptx_type_size(v.type);
  if (std::size_t bytes = 0;
      __builtin_mul_overflow(element * static_cast<std::size_t>(v.vector_width),
                             v.array_size.value_or(1), &bytes) ||
      bytes > k_max_variable_bytes) {
    in.fail(fmt::format("{} is larger than {} bytes", v.name, k_max_variable_bytes));
  }
  if (in.accept('=')) {
    const Token at = in.peek();
    parse_init_list(in, v, element);
    const std::size_t declared = v.size_bytes();
    if (declared > k_max_initialized_bytes) {
      in.fail(at, fmt::format("{} is initialized and larger than {} bytes", v.name,
                              k_max_initialized_bytes));
    }
    if (v.array_size && *v.array_size == 0) {
      // x[] = {…}: the initializer gives the size.
      const std::size_t stride = element * static_cast<std::size_t>(v.vector_width);
      if (stride == 0) {
        in.fail(at, fmt::format("{} has no element size", v.name));
      }
      v.array_size = v.init.size() / stride;
    } else if (v.init.size() > declared) {
      in.fail(at, fmt::format("initializer has {} bytes but {} holds {}", v.init.size(), v.name,
                              declared));
    } else {
      v.init.resize(declared, 0); // missing trailing elements are zero, as in C
    }
  }
}

} // namespace

} // namespace gpurun::ptx
