#include "backends/compilers/source_scan.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace gpurun::compilers::scan {

std::string_view role_name(Role role) {
  switch (role) {
  case Role::kernel:
    return "kernel";
  case Role::device_function:
    return "device function";
  case Role::device_variable:
    return "device variable";
  case Role::host_function:
    return "host function";
  case Role::host_variable:
    return "host variable";
  case Role::entity:
    return "declaration";
  case Role::macro_call:
    return "macro invocation";
  case Role::using_namespace:
    return "using-directive";
  case Role::static_assertion:
    return "static_assert";
  case Role::unknown:
    return "declaration";
  }
  return "declaration";
}

namespace {

// Words before a parenthesised list that belongs to them, not to a declarator.
bool is_attribute_word(std::string_view w) {
  return w == "__launch_bounds__" || w == "__attribute__" || w == "__declspec" || w == "alignas" ||
         w == "__align__" || w == "__maxnreg__" || w == "__cluster_dims__" || w == "decltype" ||
         w == "__builtin_align__" || w == "sizeof" || w == "alignof" || w == "noexcept" ||
         w == "__grid_constant__" || w == "throw" || w == "_Alignas" || w == "requires" ||
         w == "__nv_register_params__";
}

bool is_class_key(std::string_view w) {
  return w == "struct" || w == "class" || w == "union" || w == "enum";
}

struct Qualifiers {
  bool global = false;
  bool device = false;
  bool host = false;
  bool device_storage = false; ///< __constant__ __shared__ __managed__ (or __device__ on data)
  bool constexpr_ = false;
  bool const_ = false;
  bool extern_ = false;
  bool typedef_ = false;
};

class Reader {
public:
  Reader(std::string_view text, Structure& out) : m_text(text), m_out(out) {
    for (std::size_t i = 0; i < out.lexemes.size(); ++i)
      if (out.lexemes[i].kind != Kind::directive)
        m_code.push_back(i);
  }

  void read() {
    std::size_t pos = 0;
    while (m_out.ok) {
      read_scope(pos, /*until_close=*/false);
      if (pos >= size())
        break;
      // A '}' that closes nothing here (conditional compilation that opens a brace in each
      // branch, say): kept as it is, and the reading goes on after it.
      note(pos, "a '}' closes no declaration");
      Unit stray;
      stray.first = m_code[pos];
      stray.last = m_code[pos] + 1;
      m_out.units.push_back(std::move(stray));
      ++pos;
    }
  }

private:
  std::string_view m_text;
  Structure& m_out;
  std::vector<std::size_t> m_code; ///< indices of the non-directive lexemes

  [[nodiscard]] std::size_t size() const { return m_code.size(); }
  [[nodiscard]] const Lexeme& at(std::size_t i) const { return m_out.lexemes[m_code[i]]; }
  [[nodiscard]] std::string_view str(std::size_t i) const { return text_of(m_text, at(i)); }
  [[nodiscard]] bool is(std::size_t i, std::string_view p) const {
    return i < size() && str(i) == p && at(i).kind != Kind::literal;
  }
  [[nodiscard]] bool ident(std::size_t i) const {
    return i < size() && at(i).kind == Kind::identifier;
  }

  void note(std::size_t i, std::string_view what) {
    if (m_out.problem.empty())
      m_out.problem = fmt::format("line {}: {}", at(i).line, what);
  }

  void fail(std::size_t i, std::string_view what) {
    if (!m_out.ok)
      return;
    m_out.ok = false;
    m_out.problem = fmt::format("line {}: {}", i < size() ? at(i).line : at(size() - 1).line, what);
  }

  // Index just past the bracket matching the one at `open`.
  std::size_t skip_brackets(std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < size(); ++i) {
      if (at(i).kind != Kind::punct)
        continue;
      const std::string_view p = str(i);
      if (p == "(" || p == "[" || p == "{") {
        ++depth;
      } else if (p == ")" || p == "]" || p == "}") {
        if (--depth == 0)
          return i + 1;
        if (depth < 0)
          return i;
      }
    }
    fail(open, "an unclosed bracket");
    return size();
  }

  // Index just past `template < … >` (and repeated headers) starting at `i`.
  std::size_t skip_template_headers(std::size_t i) {
    while (is(i, "template") && is(i + 1, "<")) {
      int angle = 0;
      std::size_t j = i + 1;
      for (; j < size(); ++j) {
        if (is(j, "(") || is(j, "[") || is(j, "{")) {
          j = skip_brackets(j) - 1;
          continue;
        }
        if (is(j, "<"))
          ++angle;
        else if (is(j, ">") && --angle == 0)
          break;
      }
      i = j + 1;
    }
    return i;
  }

  void read_scope(std::size_t& pos, bool until_close) {
    while (pos < size() && m_out.ok) {
      if (is(pos, "}")) {
        if (until_close)
          return;
        return; // read() reports it
      }
      if (is(pos, ";")) {
        ++pos;
        continue;
      }
      if (open_scope(pos))
        continue;
      read_declaration(pos);
    }
  }

  // namespace N { … }, inline namespace, extern "C" { … }: the braces stay, the inside is read.
  bool open_scope(std::size_t& pos) {
    std::size_t i = pos;
    if (is(i, "inline") && is(i + 1, "namespace"))
      ++i;
    if (is(i, "namespace")) {
      std::size_t j = i + 1;
      std::string name;
      while (j < size() && (ident(j) || is(j, "::"))) {
        name += std::string(str(j));
        ++j;
      }
      while (is(j, "__attribute__") || is(j, "[")) // namespace attributes
        j = skip_brackets(is(j, "[") ? j : j + 1);
      if (!is(j, "{"))
        return false; // an alias: namespace cg = cooperative_groups;
      if (!name.empty()) {
        for (std::size_t k = 0; k < name.size();) {
          const std::size_t sep = name.find("::", k);
          m_out.namespaces.insert(name.substr(k, sep - k));
          k = sep == std::string::npos ? name.size() : sep + 2;
        }
      }
      pos = j + 1;
    } else if (is(i, "extern") && i + 2 < size() && at(i + 1).kind == Kind::literal &&
               is(i + 2, "{")) {
      pos = i + 3;
    } else {
      return false;
    }
    read_scope(pos, /*until_close=*/true);
    if (!is(pos, "}")) {
      fail(pos, "a namespace or extern block is not closed");
      return true;
    }
    ++pos;
    return true;
  }

  void read_declaration(std::size_t& pos) {
    const std::size_t start = pos;
    // A function-like macro invoked at namespace scope: its unit ends at its ')' (and ';') unless
    // the declaration goes on after it on the same line (a macro used as a specifier).
    if (ident(pos) && is(pos + 1, "(")) {
      const auto macro = m_out.macros.find(str(pos));
      if (macro != m_out.macros.end() && macro->second.function_like) {
        const std::size_t close = skip_brackets(pos + 1);
        if (is(close, ";") || close >= size() || is(close, "}") ||
            at(close).line != at(close - 1).line) {
          pos = is(close, ";") ? close + 1 : close;
          add_unit(start, pos, /*macro_call=*/true);
          return;
        }
      }
    }
    const std::size_t end = find_end(pos);
    pos = end;
    add_unit(start, end, false);
  }

  // One past the last lexeme of the declaration starting at `start`.
  std::size_t find_end(std::size_t start) {
    std::size_t i = skip_template_headers(start);
    bool saw_equal = false;
    bool saw_declarator_paren = false;
    bool saw_class_key = false;
    bool in_member_init = false;
    while (i < size()) {
      const std::string_view w = str(i);
      const bool punct = at(i).kind == Kind::punct;
      if (punct && w == ";")
        return i + 1;
      if (punct && w == "}")
        return i; // the enclosing scope ends: a declaration without ';' (the caller copes)
      if (punct && w == "=") {
        saw_equal = true;
        ++i;
        continue;
      }
      if (ident(i) && w == "operator") {
        // operator=, operator+=, operator<, operator() …: the symbol is part of the name.
        std::size_t j = i + 1;
        if (is(j, "(") && is(j + 1, ")"))
          j += 2;
        while (j < size() && !is(j, "(") && !is(j, ";") && !is(j, "{"))
          ++j;
        i = j;
        continue;
      }
      if (ident(i) && is_class_key(w) && !saw_declarator_paren)
        saw_class_key = true;
      if (ident(i) && is_attribute_word(w)) {
        ++i;
        if (is(i, "("))
          i = skip_brackets(i);
        continue;
      }
      if (is(i, "[") && is(i + 1, "[")) { // [[attribute]]
        i = skip_brackets(i);
        continue;
      }
      if (punct && (w == "(" || w == "[")) {
        if (w == "(" && !saw_equal)
          saw_declarator_paren = true;
        i = skip_brackets(i);
        continue;
      }
      if (punct && w == ":" && saw_declarator_paren && !saw_equal)
        in_member_init = true; // Foo::Foo() : a(1), b{2} { … }
      if (punct && w == "{" && in_member_init && i > start && (ident(i - 1) || is(i - 1, ">"))) {
        i = skip_brackets(i);
        continue;
      }
      if (punct && w == "{") {
        const bool function_body = saw_declarator_paren && !saw_equal && !saw_class_key;
        i = skip_brackets(i);
        if (function_body)
          return i;
        // A class body or an initializer: the declaration goes on to its ';'.
        saw_class_key = false;
        continue;
      }
      ++i;
    }
    return size();
  }

  Qualifiers qualifiers(std::size_t from, std::size_t to) {
    Qualifiers q;
    std::set<std::string_view> seen;
    std::vector<std::string_view> words;
    for (std::size_t i = from; i < to; ++i)
      if (ident(i))
        words.push_back(str(i));
    // Object-like macros expand (#define HOST_DEVICE __host__ __device__).
    for (std::size_t k = 0; k < words.size() && k < 4096; ++k) {
      const auto w = words[k];
      if (!seen.insert(w).second)
        continue;
      if (const auto m = m_out.macros.find(w); m != m_out.macros.end())
        for (const auto& b : m->second.body_identifiers)
          words.push_back(b);
      if (w == "__global__")
        q.global = true;
      else if (w == "__device__")
        q.device = true;
      else if (w == "__host__")
        q.host = true;
      else if (w == "__constant__" || w == "__shared__" || w == "__managed__")
        q.device_storage = true;
      else if (w == "constexpr" || w == "consteval")
        q.constexpr_ = true;
      else if (w == "const")
        q.const_ = true;
      else if (w == "extern")
        q.extern_ = true;
      else if (w == "typedef")
        q.typedef_ = true;
    }
    return q;
  }

  // Index of the '(' of the declarator's parameter list in [from, to), or `to`.
  std::size_t declarator_paren(std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      if (is(i, "=") || is(i, "{") || is(i, ";"))
        return to;
      if (ident(i) && is_attribute_word(str(i))) {
        if (is(i + 1, "("))
          i = skip_brackets(i + 1) - 1;
        continue;
      }
      if (is(i, "operator")) {
        // operator() ( … ) and operator< ( … ): the name runs to the first '(' after it, but
        // the call operator's own "()" is part of the name.
        std::size_t j = i + 1;
        if (is(j, "(") && is(j + 1, ")"))
          j += 2;
        while (j < to && !is(j, "("))
          ++j;
        return j;
      }
      if (is(i, "[") && is(i + 1, "[")) {
        i = skip_brackets(i) - 1;
        continue;
      }
      if (is(i, "(")) {
        // A parenthesised declarator: void (*fp)(int) is a variable, float (name)(…) rare.
        if (is(i + 1, "*") || is(i + 1, "&") || is(i + 1, "^"))
          return to;
        return i;
      }
      if (is(i, "[")) {
        i = skip_brackets(i) - 1;
        continue;
      }
    }
    return to;
  }

  void add_unit(std::size_t start, std::size_t end, bool macro_call) {
    if (end <= start)
      return;
    Unit u;
    u.first = m_code[start];
    u.last = m_code[end - 1] + 1;
    for (std::size_t i = start; i < end; ++i)
      if (ident(i))
        mention(u, str(i));
    if (macro_call) {
      // What it declares is unknown; its arguments are the best guess (DECLARE_TYPE(Foo)).
      u.role = Role::macro_call;
      for (std::size_t i = start + 2; i < end; ++i)
        if (ident(i))
          u.names.emplace_back(str(i));
      m_out.units.push_back(std::move(u));
      return;
    }
    const std::size_t body = skip_template_headers(start);
    if (body >= end) {
      m_out.units.push_back(std::move(u));
      return;
    }
    const std::string_view head = str(body);
    if (head == "static_assert" || head == "_Static_assert") {
      u.role = Role::static_assertion;
    } else if (head == "using" && is(body + 1, "namespace")) {
      u.role = Role::using_namespace;
      for (std::size_t i = body + 2; i < end && !is(i, ";"); ++i)
        u.nominated += std::string(str(i));
    } else if (head == "using") {
      u.role = Role::entity;
      // using X = …; / using ns::X;
      if (ident(body + 1) && is(body + 2, "=")) {
        u.names.emplace_back(str(body + 1));
      } else {
        std::size_t i = body + 1;
        std::string last;
        for (; i < end && !is(i, ";"); ++i)
          if (ident(i))
            last = std::string(str(i));
        if (!last.empty())
          u.names.push_back(last);
      }
    } else if (head == "namespace") { // namespace cg = cooperative_groups;
      u.role = Role::entity;
      if (ident(body + 1))
        u.names.emplace_back(str(body + 1));
    } else {
      classify(u, body, end);
    }
    m_out.units.push_back(std::move(u));
  }

  void mention(Unit& u, std::string_view name) {
    if (!u.mentions.emplace(name).second)
      return;
    const auto m = m_out.macros.find(name);
    if (m == m_out.macros.end())
      return;
    for (const auto& b : m->second.body_identifiers)
      mention(u, b);
  }

  // Where the class key's body opens, if the declaration defines a class, enum or union.
  std::optional<std::size_t> class_body(std::size_t body, std::size_t end) {
    for (std::size_t i = body; i < end; ++i) {
      if (ident(i) && is_attribute_word(str(i)) && is(i + 1, "(")) {
        i = skip_brackets(i + 1) - 1;
        continue;
      }
      if (is(i, "(") || is(i, "=") || is(i, ";"))
        return std::nullopt;
      if (is(i, "{"))
        return i;
    }
    return std::nullopt;
  }

  void classify(Unit& u, std::size_t body, std::size_t end) {
    const std::size_t stop = is(end - 1, ";") ? end - 1 : end;
    // Class, struct, union, enum (definition or forward declaration).
    std::size_t key = body;
    while (key < stop && ident(key) && !is_class_key(str(key)) &&
           (str(key) == "typedef" || str(key) == "static" || str(key) == "inline" ||
            str(key) == "const" || str(key) == "volatile" || str(key) == "constexpr" ||
            str(key) == "__device__" || str(key) == "__constant__" || str(key) == "__align__" ||
            str(key) == "__builtin_align__" || str(key) == "alignas" || str(key) == "extern"))
      key = is(key + 1, "(") ? skip_brackets(key + 1) : key + 1;
    if (ident(key) && is_class_key(str(key))) {
      const auto open = class_body(key, stop);
      const bool forward = !open && !is(key + 2, "(") && key + 2 >= stop;
      if (open || forward) {
        classify_class(u, key, stop, open);
        return;
      }
    }
    const std::size_t paren = declarator_paren(body, stop);
    if (paren < stop) {
      // A function: its name is what stands before the parameter list.
      std::size_t name_at = paren - 1;
      for (std::size_t i = body; i < paren; ++i)
        if (is(i, "operator")) {
          name_at = i;
          u.is_operator = true;
          break;
        }
      if (!u.is_operator && is(name_at, ">")) { // an explicit specialization: f<float>(
        int angle = 0;
        for (std::size_t i = name_at + 1; i-- > body;) {
          if (is(i, ">")) {
            ++angle;
          } else if (is(i, "<") && --angle == 0) {
            name_at = i - 1;
            break;
          }
        }
      }
      const Qualifiers q = qualifiers(body, std::min(name_at, paren));
      if (u.is_operator) {
        u.names.emplace_back("operator");
      } else if (name_at >= body && ident(name_at)) {
        u.names.emplace_back(str(name_at));
      }
      // Foo::bar( / Foo<T>::bar( / Foo::~Foo( belong to Foo.
      std::size_t q_at = name_at;
      if (q_at > body && is(q_at - 1, "~"))
        --q_at;
      if (q_at > body + 1 && is(q_at - 1, "::")) {
        std::size_t c = q_at - 2;
        if (is(c, ">")) {
          int angle = 0;
          for (std::size_t i = c + 1; i-- > body;) {
            if (is(i, ">")) {
              ++angle;
            } else if (is(i, "<") && --angle == 0) {
              c = i - 1;
              break;
            }
          }
        }
        if (c >= body && ident(c))
          u.attached.emplace_back(str(c));
      }
      u.is_definition = is(end - 1, "}");
      // '= default' / '= delete' and pure declarations of types are entities too.
      if (q.global)
        u.role = Role::kernel;
      else if (q.device)
        u.role = Role::device_function;
      else if (q.constexpr_)
        u.role = Role::entity;
      else if (q.typedef_)
        u.role = Role::entity;
      else
        u.role = Role::host_function;
      if (q.typedef_)
        typedef_names(u, body, stop);
      return;
    }
    // A variable or a typedef: the specifiers are what comes before '=', '(' , '[' or '{'.
    std::size_t spec_end = body;
    while (spec_end < stop && !is(spec_end, "=") && !is(spec_end, "(") && !is(spec_end, "[") &&
           !is(spec_end, "{"))
      ++spec_end;
    const Qualifiers q = qualifiers(body, spec_end);
    if (q.typedef_) {
      u.role = Role::entity;
      typedef_names(u, body, stop);
      return;
    }
    variable_name(u, body, stop);
    if (q.device || q.device_storage)
      u.role = Role::device_variable;
    else if (q.constexpr_ || (q.const_ && !q.extern_))
      u.role = Role::entity;
    else
      u.role = Role::host_variable;
  }

  void classify_class(Unit& u, std::size_t key, std::size_t stop, std::optional<std::size_t> open) {
    u.role = Role::entity;
    const bool is_enum = str(key) == "enum";
    std::size_t i = key + 1;
    if (is_enum && (is(i, "class") || is(i, "struct")))
      ++i;
    // Attributes between the key and the name.
    while (i < stop && (is_attribute_word(str(i)) || (is(i, "[") && is(i + 1, "[")))) {
      i = is(i, "[") ? skip_brackets(i) : i + 1;
      if (is(i, "("))
        i = skip_brackets(i);
    }
    if (ident(i) && (!open || i < *open)) {
      u.names.emplace_back(str(i));
      // A specialization's name is followed by its arguments; a qualified name by '::'.
      while (is(i + 1, "::") && ident(i + 2)) {
        u.attached.push_back(u.names.back());
        u.names.back() = std::string(str(i + 2));
        i += 2;
      }
    }
    if (!open)
      return;
    const std::size_t close = skip_brackets(*open);
    if (is_enum && !(is(key + 1, "class") || is(key + 1, "struct"))) {
      // Unscoped enumerators are names at namespace scope.
      int depth = 0;
      bool expect_name = true;
      for (std::size_t k = *open + 1; k + 1 < close; ++k) {
        if (is(k, "(") || is(k, "[") || is(k, "{"))
          ++depth;
        else if (is(k, ")") || is(k, "]") || is(k, "}"))
          --depth;
        else if (depth == 0 && is(k, ","))
          expect_name = true;
        else if (depth == 0 && expect_name && ident(k)) {
          u.names.emplace_back(str(k));
          expect_name = false;
        }
      }
    }
    // Declarators after the body: struct S { … } s, *p;
    for (std::size_t k = close; k < stop; ++k)
      if (ident(k) && (is(k + 1, ",") || is(k + 1, "[") || is(k + 1, "=") || k + 1 >= stop))
        u.names.emplace_back(str(k));
  }

  void typedef_names(Unit& u, std::size_t body, std::size_t stop) {
    // typedef float (*fn)(float); → fn. typedef struct { … } Name, *PName; → Name, PName.
    for (std::size_t i = body; i + 2 < stop; ++i)
      if (is(i, "(") && (is(i + 1, "*") || is(i + 1, "&")) && ident(i + 2)) {
        u.names.emplace_back(str(i + 2));
        return;
      }
    int depth = 0;
    for (std::size_t i = body; i < stop; ++i) {
      if (is(i, "(") || is(i, "[") || is(i, "{"))
        ++depth;
      else if (is(i, ")") || is(i, "]") || is(i, "}"))
        --depth;
      else if (depth == 0 && ident(i) && (i + 1 >= stop || is(i + 1, ",") || is(i + 1, "[")))
        u.names.emplace_back(str(i));
    }
  }

  void variable_name(Unit& u, std::size_t body, std::size_t stop) {
    int depth = 0;
    int angle = 0;
    std::string last;
    for (std::size_t i = body; i < stop; ++i) {
      if (is(i, "(") || is(i, "[") || is(i, "{")) {
        if (depth == 0 && angle == 0 && !last.empty()) {
          u.names.push_back(last);
          return;
        }
        ++depth;
      } else if (is(i, ")") || is(i, "]") || is(i, "}")) {
        --depth;
      } else if (depth == 0 && is(i, "<")) {
        ++angle;
      } else if (depth == 0 && is(i, ">") && angle > 0) {
        --angle;
      } else if (depth == 0 && angle == 0 && (is(i, "=") || is(i, ","))) {
        break;
      } else if (depth == 0 && angle == 0 && ident(i)) {
        last = std::string(str(i));
      }
    }
    if (!last.empty())
      u.names.push_back(last);
  }
};

} // namespace

Structure read_structure(std::string_view text, const Macros& known) {
  Structure out;
  out.lexemes = lex(text);
  out.macros = known;
  collect_macros(text, out.lexemes, out.macros);
  Reader(text, out).read();
  return out;
}

} // namespace gpurun::compilers::scan
