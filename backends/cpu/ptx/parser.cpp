#include "backends/cpu/ptx/parser.hpp"

#include <unordered_set>

#include <fmt/format.h>

#include "backends/cpu/ptx/declaration.hpp"
#include "backends/cpu/ptx/instruction.hpp"
#include "backends/cpu/ptx/lexer.hpp"
#include "backends/cpu/ptx/scope.hpp"
#include "backends/cpu/ptx/token_cursor.hpp"
#include "backends/kit/ptx_entries.hpp"
#include "base/error.hpp"

namespace gpurun::ptx {
namespace {

constexpr long long k_max_registers = 1 << 20;

std::optional<StateSpace> variable_space(std::string_view directive) {
  if (directive == ".global") {
    return StateSpace::global;
  }
  if (directive == ".shared") {
    return StateSpace::shared;
  }
  if (directive == ".const") {
    return StateSpace::const_;
  }
  if (directive == ".local") {
    return StateSpace::local;
  }
  if (directive == ".param") {
    return StateSpace::param;
  }
  return std::nullopt;
}

class Parser {
public:
  Parser(std::string_view text, std::string_view file) : m_in(text, file) {}

  Module parse() {
    while (!m_in.at_end()) {
      top_level();
    }
    return std::move(m_module);
  }

private:
  void top_level() {
    const Token t = m_in.peek();
    if (t.kind != Token::Kind::directive) {
      m_in.fail("expected a directive");
    }
    if (t.text == ".version") {
      m_in.take();
      const Token v = m_in.take();
      if (v.kind != Token::Kind::decimal_float && v.kind != Token::Kind::integer) {
        m_in.fail(v, "expected a version number after .version");
      }
      m_module.version = std::string(v.text);
    } else if (t.text == ".target") {
      m_in.take();
      m_module.target = std::string(m_in.expect_identifier("a target after .target").text);
      while (m_in.accept(',')) {
        (void)m_in.expect_identifier("a target option");
      }
    } else if (t.text == ".address_size") {
      m_in.take();
      const Token at = m_in.peek();
      const long long size = m_in.expect_integer("32 or 64 after .address_size");
      if (size != 32 && size != 64) {
        m_in.fail(at, "expected 32 or 64 after .address_size");
      }
      m_module.address_size = static_cast<int>(size);
    } else if (t.text == ".file") {
      file_directive();
    } else if (t.text == ".loc") {
      loc_directive();
    } else if (t.text == ".pragma") {
      pragma();
    } else if (t.text == ".section") {
      skip_section();
    } else {
      linked_declaration();
    }
  }

  // [.visible|.weak|.extern|.common] (.entry|.func|.global|.shared|.const …)
  void linked_declaration() {
    const Token first = m_in.peek();
    std::string linkage;
    if (first.text == ".visible" || first.text == ".weak" || first.text == ".extern" ||
        first.text == ".common") {
      linkage = std::string(m_in.take().text.substr(1));
    }
    const Token what = m_in.peek();
    if (what.text == ".entry" || what.text == ".func") {
      m_in.take();
      function(linkage, what.text == ".entry", first.line);
      return;
    }
    const auto space = variable_space(what.text);
    if (what.kind != Token::Kind::directive || !space || *space == StateSpace::param) {
      m_in.fail(what,
                what.kind == Token::Kind::directive ? "unknown directive" : "expected a directive");
    }
    m_in.take();
    Variable v = parse_variable(m_in, *space, first.line);
    v.is_extern = linkage == "extern";
    m_module.globals.push_back(v);
    while (m_in.accept(',')) {
      m_module.globals.push_back(parse_next_variable(m_in, v));
    }
    m_in.expect(';', "after a declaration");
  }

  void file_directive() {
    m_in.take();
    const auto index = static_cast<int>(m_in.expect_integer("a file number after .file"));
    if (m_in.peek().kind != Token::Kind::string) {
      m_in.fail("expected a file name after .file N");
    }
    m_module.files[index] = std::string(m_in.take().text);
    while (m_in.accept(',')) { // optional timestamp and size
      (void)m_in.expect_integer("a number in .file");
    }
  }

  // .loc FILE LINE COLUMN [, function_name …, inlined_at …]: the trailing debug info names what
  // was inlined, which the emulator does not need; it ends with the line.
  void loc_directive() {
    const int line = m_in.take().line;
    m_loc_file = static_cast<int>(m_in.expect_integer("a file number after .loc"));
    m_loc_line = static_cast<int>(m_in.expect_integer("a line number after .loc"));
    (void)m_in.expect_integer("a column after .loc");
    while (!m_in.at_end() && m_in.peek().line == line && m_in.peek().is_punct(',')) {
      while (!m_in.at_end() && m_in.peek().line == line) {
        m_in.take();
      }
    }
  }

  void pragma() {
    m_in.take();
    do {
      if (m_in.peek().kind != Token::Kind::string) {
        m_in.fail("expected a string after .pragma");
      }
      m_in.take();
    } while (m_in.accept(','));
    m_in.expect(';', "after .pragma");
  }

  // DWARF sections (from -G) carry nothing the emulator uses.
  void skip_section() {
    m_in.take();
    while (!m_in.at_end() && !m_in.peek().is_punct('{')) {
      m_in.take();
    }
    skip_braces();
  }

  void skip_braces() {
    m_in.expect('{', "opening a block");
    int depth = 1;
    while (depth > 0) {
      if (m_in.at_end()) {
        m_in.fail("unterminated block");
      }
      const Token t = m_in.take();
      depth += t.is_punct('{') ? 1 : t.is_punct('}') ? -1 : 0;
    }
  }

  void function(const std::string& linkage, bool is_entry, int line) {
    Function f;
    f.is_entry = is_entry;
    f.linkage = linkage;
    f.line = line;
    m_scopes.reset();
    m_scopes.push();
    m_labels.clear();
    m_loc_file = 0;
    m_loc_line = 0;
    if (!is_entry && m_in.peek().is_punct('(')) {
      f.returns = param_list();
    }
    f.name = std::string(m_in.expect_identifier("a function name").text);
    if (m_in.peek().is_punct('(')) {
      if (is_entry) {
        entry_param_list(f);
      } else {
        f.params = param_list();
      }
    }
    performance_directives(f);
    if (m_in.accept(';')) {
      f.has_body = false;
    } else {
      body(f);
    }
    m_module.functions.push_back(std::move(f));
  }

  // A kernel's parameters are read by the PTX entry parser that core and the CUDA backend use
  // too, so that all agree on the layout of the parameter buffer.
  void entry_param_list(Function& f) {
    const Token open = m_in.take();
    Token close = open;
    for (int depth = 1; depth > 0;) {
      if (m_in.at_end()) {
        m_in.fail(open, "unclosed parameter list");
      }
      close = m_in.take();
      depth += close.is_punct('(') ? 1 : close.is_punct(')') ? -1 : 0;
    }
    const std::string_view list(open.text.data(),
                                static_cast<std::size_t>(close.text.data() - open.text.data()) + 1);
    std::vector<kit::PtxParam> params;
    try {
      params = kit::parse_ptx_param_list(list, open.line);
    } catch (const kit::PtxSyntaxError& e) {
      throw Error(ExitCode::compile, fmt::format("{}:{}: {}", m_in.file(), e.line(), e.what()));
    }
    for (const kit::PtxParam& p : params) {
      Variable v;
      v.space = StateSpace::param;
      v.type = p.type;
      v.align = p.align;
      v.vector_width = p.vector_width;
      v.name = m_scopes.declare(p.name);
      v.array_size = p.array_size;
      v.is_ptr = p.is_ptr;
      v.line = p.line;
      f.params.push_back(std::move(v));
      f.param_offsets.push_back(p.offset);
      f.param_bytes = p.offset + p.size;
    }
  }

  std::vector<Variable> param_list() {
    m_in.expect('(', "opening a parameter list");
    std::vector<Variable> params;
    if (!m_in.peek().is_punct(')')) {
      do {
        const Token space = m_in.peek();
        if (!space.is_directive(".param") && !space.is_directive(".reg")) {
          m_in.fail("expected .param in a parameter list");
        }
        m_in.take();
        Variable v = parse_variable(
            m_in, space.text == ".reg" ? StateSpace::reg : StateSpace::param, space.line);
        v.name = m_scopes.declare(v.name);
        params.push_back(std::move(v));
      } while (m_in.accept(','));
    }
    m_in.expect(')', "closing a parameter list");
    return params;
  }

  void performance_directives(Function& f) {
    while (m_in.peek().kind == Token::Kind::directive) {
      const Token d = m_in.take();
      if (d.text == ".maxntid" || d.text == ".reqntid" || d.text == ".reqnctapercluster") {
        std::optional<unsigned> dims[3];
        for (int i = 0; i < 3; ++i) {
          if (i > 0 && !m_in.accept(',')) {
            dims[i] = 1; // omitted dimensions are 1
            continue;
          }
          const long long n = m_in.expect_integer(fmt::format("a size after {}", d.text));
          if (n <= 0) {
            m_in.fail(fmt::format("{} sizes must be positive", d.text));
          }
          dims[i] = static_cast<unsigned>(n);
        }
        auto* target = d.text == ".maxntid"   ? f.maxntid
                       : d.text == ".reqntid" ? f.reqntid
                                              : nullptr;
        for (int i = 0; target != nullptr && i < 3; ++i) {
          target[i] = dims[i];
        }
      } else if (d.text == ".minnctapersm") {
        f.minnctapersm = static_cast<unsigned>(m_in.expect_integer("a count after .minnctapersm"));
      } else if (d.text == ".maxnreg") {
        f.maxnreg = static_cast<unsigned>(m_in.expect_integer("a count after .maxnreg"));
      } else if (d.text == ".maxclusterrank") {
        (void)m_in.expect_integer("a count after .maxclusterrank");
      } else if (d.text == ".noreturn") {
        f.noreturn = true;
      } else if (d.text == ".explicitcluster" || d.text == ".blocksareclusters") {
        // launch-shape hints with no effect on a CPU
      } else if (d.text == ".pragma") {
        do {
          if (m_in.peek().kind != Token::Kind::string) {
            m_in.fail("expected a string after .pragma");
          }
          m_in.take();
        } while (m_in.accept(','));
        m_in.expect(';', "after .pragma");
      } else {
        m_in.fail(d, "unknown directive");
      }
    }
  }

  void body(Function& f) {
    m_in.expect('{', "opening a function body");
    m_scopes.push();
    while (true) {
      const Token t = m_in.peek();
      if (t.kind == Token::Kind::end) {
        m_in.fail(t, fmt::format("missing '}}' at the end of {}", f.name));
      }
      if (t.is_punct('{')) {
        m_in.take();
        m_scopes.push();
      } else if (t.is_punct('}')) {
        m_in.take();
        m_scopes.pop();
        if (m_scopes.depth() == 1) {
          return;
        }
      } else if (t.kind == Token::Kind::directive) {
        body_directive(f);
      } else if (t.kind == Token::Kind::identifier && m_in.peek(1).is_punct(':')) {
        m_in.take();
        m_in.take();
        if (m_in.peek().is_directive(".callprototype")) {
          // An indirect call's signature: the call names it, the emulator checks the callee's.
          while (!m_in.at_end() && !m_in.peek().is_punct(';')) {
            m_in.take();
          }
          m_in.expect(';', "after .callprototype");
          continue;
        }
        if (t.text.front() == '%') {
          m_in.fail(t, "a label cannot start with '%'");
        }
        if (!m_labels.insert(t.text).second) {
          m_in.fail(t, "duplicate label");
        }
        Statement s;
        s.label = Label{std::string(t.text), t.line};
        f.body.push_back(std::move(s));
      } else {
        Statement s;
        s.instruction = parse_instruction(m_in, m_scopes);
        s.instruction->source_file = m_loc_file;
        s.instruction->source_line = m_loc_line;
        f.body.push_back(std::move(s));
      }
    }
  }

  void body_directive(Function& f) {
    const Token d = m_in.peek();
    if (d.text == ".reg") {
      m_in.take();
      register_decl(f);
    } else if (d.text == ".loc") {
      loc_directive();
    } else if (d.text == ".pragma") {
      pragma();
    } else if (auto space = variable_space(d.text)) {
      m_in.take();
      Variable v = parse_variable(m_in, *space, d.line);
      v.name = m_scopes.declare(v.name);
      f.locals.push_back(v);
      while (m_in.accept(',')) {
        Variable next = parse_next_variable(m_in, v);
        next.name = m_scopes.declare(next.name);
        f.locals.push_back(std::move(next));
      }
      m_in.expect(';', "after a declaration");
    } else {
      m_in.fail(d, "unknown directive");
    }
  }

  // .reg [.v2|.v4] .type %r<N>, %x, …;
  void register_decl(Function& f) {
    std::string type;
    while (m_in.peek().kind == Token::Kind::directive) {
      const Token d = m_in.take();
      if (is_type_directive(d.text)) {
        type = std::string(d.text.substr(1));
      } else if (d.text != ".v2" && d.text != ".v4") {
        m_in.fail(d, "unexpected directive in .reg");
      }
    }
    if (type.empty()) {
      m_in.fail("expected a type after .reg");
    }
    do {
      const Token name = m_in.expect_identifier("a register name");
      RegisterDecl r;
      r.type = type;
      if (m_in.accept('<')) {
        const long long count = m_in.expect_integer("a register count");
        if (count <= 0) {
          m_in.fail("register count must be positive");
        }
        // Compilers declare thousands at most; the emulator gives each one a slot.
        long long total = count;
        for (const RegisterDecl& earlier : f.registers)
          total += earlier.count;
        if (total > k_max_registers) {
          m_in.fail(fmt::format("more than {} registers in one function", k_max_registers));
        }
        m_in.expect('>', "after the register count");
        r.count = static_cast<int>(count);
        r.name = m_scopes.declare_range(name.text, r.count);
      } else {
        r.name = m_scopes.declare(name.text);
      }
      m_scopes.mark_register(r.name, r.count);
      f.registers.push_back(std::move(r));
    } while (m_in.accept(','));
    m_in.expect(';', "after .reg");
  }

  TokenCursor m_in;
  Module m_module;
  ScopeStack m_scopes;
  std::unordered_set<std::string_view> m_labels; // of the current function
  int m_loc_file = 0;
  int m_loc_line = 0;
};

} // namespace

Module parse_module(std::string_view text, std::string_view file_name_for_errors) {
  return Parser(text, file_name_for_errors).parse();
}

} // namespace gpurun::ptx
