#include "backends/cpu/ptx/instruction.hpp"

#include <array>
#include <fmt/format.h>

#include "backends/cpu/ptx/literals.hpp"
#include "backends/kit/ptx_entries.hpp"

namespace gpurun::ptx {
namespace {

constexpr int k_max_operand_depth = 4;
constexpr long long k_max_address_offset = 1LL << 32;

class InstructionParser {
public:
  InstructionParser(TokenCursor& in, const ScopeStack& scopes) : m_in(in), m_scopes(scopes) {}

  Instruction parse() {
    Instruction ins;
    ins.line = m_in.peek().line;
    if (m_in.accept('@')) {
      ins.guard_negated = m_in.accept('!');
      const Token g = m_in.expect_identifier("a guard predicate after '@'");
      ins.guard = register_name(g);
    }
    const Token op = m_in.expect_identifier("an instruction");
    if (op.text.front() == '%' || op.text.front() == '$') {
      m_in.fail(op, "expected an instruction");
    }
    ins.opcode = std::string(op.text);
    while (m_in.peek().kind == Token::Kind::directive && !m_in.peek().space_before) {
      ins.modifiers.emplace_back(m_in.take().text.substr(1));
    }
    m_prefer_f64 = prefers_f64(ins.modifiers);
    if (ins.opcode == "call") {
      parse_call(ins);
    } else if (!m_in.peek().is_punct(';')) {
      do {
        ins.operands.push_back(operand());
      } while (m_in.accept(','));
    }
    m_in.expect(';', fmt::format("at the end of '{}'", ins.opcode));
    return ins;
  }

private:
  // A decimal float immediate takes the precision of the instruction's (last) type.
  static bool prefers_f64(const std::vector<std::string>& modifiers) {
    for (auto it = modifiers.rbegin(); it != modifiers.rend(); ++it) {
      if (is_type_directive_name(*it)) {
        return *it == "f64";
      }
    }
    return false;
  }
  static bool is_type_directive_name(std::string_view m) {
    return kit::ptx_type_size(m) != 0 && m != "v2" && m != "v4";
  }

  // `call[.uni] [(ret, …),] callee[, (arg, …)][, prototype];`
  void parse_call(Instruction& ins) {
    Operand returns;
    returns.kind = Operand::Kind::vector;
    if (m_in.peek().is_punct('(')) {
      returns = paren_list();
      m_in.expect(',', "after the call's return list");
    }
    ins.operands.push_back(std::move(returns));
    ins.operands.push_back(operand());
    Operand args;
    args.kind = Operand::Kind::vector;
    if (m_in.accept(',')) {
      if (m_in.peek().is_punct('(')) {
        args = paren_list();
        if (m_in.accept(',')) {
          ins.operands.push_back(std::move(args));
          ins.operands.push_back(operand()); // prototype or jump-table label
          return;
        }
      } else {
        ins.operands.push_back(std::move(args));
        ins.operands.push_back(operand());
        return;
      }
    }
    ins.operands.push_back(std::move(args));
  }

  Operand paren_list() {
    m_in.expect('(', "opening a call parameter list");
    Operand list;
    list.kind = Operand::Kind::vector;
    if (!m_in.peek().is_punct(')')) {
      do {
        list.elements.push_back(operand());
      } while (m_in.accept(','));
    }
    m_in.expect(')', "closing a call parameter list");
    return list;
  }

  std::string register_name(const Token t) {
    if (t.text.front() != '%') {
      return m_scopes.resolve(t.text);
    }
    if (!m_scopes.is_declared(t.text)) {
      m_in.fail(t, "undeclared register");
    }
    return m_scopes.resolve(t.text);
  }

  // `depth`: how many '!' and '{' enclose this operand. PTX nests neither more than once; a few
  // levels are read so that the message names the real problem, and the limit keeps hostile text
  // from recursing the stack away.
  Operand operand(int depth = 0) {
    Operand o;
    const Token t = m_in.peek();
    if (depth > k_max_operand_depth) {
      m_in.fail(t, "operand nested too deeply");
    }
    if (t.kind == Token::Kind::punct) {
      switch (t.text[0]) {
      case '!': {
        m_in.take();
        o = operand(depth + 1);
        if (o.kind != Operand::Kind::reg) {
          m_in.fail(t, "'!' applies only to a predicate register");
        }
        o.negated = true;
        return o;
      }
      case '-':
        m_in.take();
        o = immediate(m_in.peek());
        negate(o);
        return o;
      case '[':
        return address();
      case '{': {
        m_in.take();
        o.kind = Operand::Kind::vector;
        do {
          o.elements.push_back(operand(depth + 1));
        } while (m_in.accept(','));
        m_in.expect('}', "closing a vector operand");
        return o;
      }
      default:
        m_in.fail("expected an operand");
      }
    }
    if (t.kind != Token::Kind::identifier) {
      return immediate(t);
    }
    m_in.take();
    if (t.text == "_") {
      o.kind = Operand::Kind::sink;
      return o;
    }
    if (t.text == "WARP_SZ") {
      // PTX's one predefined constant; the decoder treats it like a special register.
      o.kind = Operand::Kind::special;
      o.name = std::string(t.text);
      return o;
    }
    if (t.text.front() != '%') {
      // A variable, function or label — or a register declared without '%' (inline asm in
      // CUDA's own headers does that: `.reg .u32 start;`).
      o.name = m_scopes.resolve(t.text);
      if (!m_scopes.is_register(o.name)) {
        o.kind = Operand::Kind::symbol;
        return o;
      }
    } else if (is_special_register(t.text) && !m_scopes.is_declared(t.text)) {
      o.kind = Operand::Kind::special;
      o.name = std::string(t.text);
      while (m_in.peek().kind == Token::Kind::directive && !m_in.peek().space_before) {
        o.name += m_in.take().text;
      }
      return o;
    } else {
      o.name = register_name(t);
    }
    o.kind = Operand::Kind::reg;
    if (m_in.peek().is_punct('|')) {
      m_in.take();
      Operand pair;
      pair.kind = Operand::Kind::pred_pair;
      pair.elements.push_back(std::move(o));
      Operand pred = operand();
      if (pred.kind != Operand::Kind::reg && pred.kind != Operand::Kind::sink) {
        m_in.fail(t, "expected a predicate register after '|'");
      }
      pair.elements.push_back(std::move(pred));
      return pair;
    }
    return o;
  }

  Operand immediate(const Token t) {
    Operand o;
    switch (t.kind) {
    case Token::Kind::integer: {
      const auto value = parse_integer_literal(t.text);
      if (!value) {
        m_in.fail(t, "malformed integer");
      }
      o.kind = Operand::Kind::imm_int;
      o.bits = *value;
      break;
    }
    case Token::Kind::f32_bits:
      o.kind = Operand::Kind::imm_f32;
      o.bits = parse_float_bits(t.text);
      break;
    case Token::Kind::f64_bits:
      o.kind = Operand::Kind::imm_f64;
      o.bits = parse_float_bits(t.text);
      break;
    case Token::Kind::decimal_float: {
      const auto value = parse_decimal_float(t.text);
      if (!value) {
        m_in.fail(t, "malformed float");
      }
      o.kind = m_prefer_f64 ? Operand::Kind::imm_f64 : Operand::Kind::imm_f32;
      o.bits = m_prefer_f64 ? f64_bits(*value) : f32_bits(static_cast<float>(*value));
      break;
    }
    default:
      m_in.fail(t, "expected an operand");
    }
    m_in.take();
    return o;
  }

  void negate(Operand& o) {
    switch (o.kind) {
    case Operand::Kind::imm_int:
      o.bits = ~o.bits + 1;
      break;
    case Operand::Kind::imm_f32:
      o.bits ^= 0x80000000ull;
      break;
    case Operand::Kind::imm_f64:
      o.bits ^= 0x8000000000000000ull;
      break;
    default:
      break;
    }
  }

  // [reg], [reg+imm], [reg+-imm], [reg-imm], [sym], [sym+imm], [imm]
  Operand address() {
    m_in.expect('[', "opening an address");
    Operand o;
    o.kind = Operand::Kind::address;
    if (m_in.peek().kind == Token::Kind::identifier) {
      const Token base = m_in.take();
      o.name = register_name(base);
      if (m_in.peek().is_punct('+') || m_in.peek().is_punct('-')) {
        const bool minus = m_in.take().is_punct('-');
        const long long off = m_in.expect_integer("an address offset");
        // PTX offsets are 32-bit; the bound also keeps base + offset within 64 bits.
        if (off < -k_max_address_offset || off > k_max_address_offset) {
          m_in.fail("address offset out of range");
        }
        o.offset = minus ? -off : off;
      }
    } else {
      o.offset = m_in.expect_integer("an address");
    }
    m_in.expect(']', "closing an address");
    return o;
  }

  TokenCursor& m_in;
  const ScopeStack& m_scopes;
  bool m_prefer_f64 = false;
};

} // namespace

bool is_special_register(std::string_view name) {
  static constexpr std::array<std::string_view, 27> exact = {"%tid",
                                                             "%ntid",
                                                             "%ctaid",
                                                             "%nctaid",
                                                             "%laneid",
                                                             "%warpid",
                                                             "%nwarpid",
                                                             "%smid",
                                                             "%nsmid",
                                                             "%gridid",
                                                             "%lanemask_eq",
                                                             "%lanemask_le",
                                                             "%lanemask_lt",
                                                             "%lanemask_ge",
                                                             "%lanemask_gt",
                                                             "%clock",
                                                             "%clock_hi",
                                                             "%clock64",
                                                             "%globaltimer",
                                                             "%globaltimer_lo",
                                                             "%globaltimer_hi",
                                                             "%dynamic_smem_size",
                                                             "%total_smem_size",
                                                             "%aggr_smem_size",
                                                             "%nclusterid",
                                                             "%clusterid",
                                                             "%is_explicit_cluster"};
  for (std::string_view e : exact) {
    if (name == e) {
      return true;
    }
  }
  for (std::string_view prefix :
       {"%cluster_", "%pm", "%envreg", "%reserved_smem_", "%current_graph_exec"}) {
    if (name.substr(0, prefix.size()) == prefix) {
      return true;
    }
  }
  return false;
}

Instruction parse_instruction(TokenCursor& in, const ScopeStack& scopes) {
  return InstructionParser(in, scopes).parse();
}

} // namespace gpurun::ptx
