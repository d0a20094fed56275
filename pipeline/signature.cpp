#include "pipeline/signature.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/suggest.hpp"
#include "pipeline/detail/c_lexer.hpp"
#include "pipeline/detail/c_types.hpp"

namespace gpurun {
namespace {

using detail::join_tokens;
using detail::Token;
using detail::TokenKind;

bool is_punct(const Token& t, std::string_view p) {
  return t.kind == TokenKind::punct && t.text == p;
}
bool is_ident(const Token& t, std::string_view name) {
  return t.kind == TokenKind::identifier && t.text == name;
}

// Qualifiers that do not change what the caller passes.
bool is_ignored_qualifier(const std::string& w) {
  return w == "__restrict__" || w == "__restrict" || w == "restrict" || w == "volatile" ||
         w == "register" || w == "__grid_constant__" || w == "struct" || w == "class" ||
         w == "union" || w == "enum" || w == "typename";
}

// Attribute-like words followed by a parenthesized argument list that belongs to them.
bool is_attribute_call(const Token& t) {
  return t.kind == TokenKind::identifier &&
         (t.text == "__launch_bounds__" || t.text == "__attribute__" || t.text == "__declspec" ||
          t.text == "alignas" || t.text == "__maxnreg__" || t.text == "__cluster_dims__" ||
          t.text == "__align__" || t.text == "noexcept");
}

// Index just past the bracket that closes the one at `open` (or tokens.size()).
std::size_t skip_balanced(const std::vector<Token>& t, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].kind != TokenKind::punct)
      continue;
    const std::string& p = t[i].text;
    if (p == "(" || p == "[" || p == "{")
      ++depth;
    else if (p == ")" || p == "]" || p == "}") {
      if (--depth == 0)
        return i + 1;
    }
  }
  return t.size();
}

// Splits tokens [begin, end) at top-level commas; '<' after a name opens a template argument list.
std::vector<std::vector<Token>> split_top_level(const std::vector<Token>& t, std::size_t begin,
                                                std::size_t end) {
  std::vector<std::vector<Token>> parts(1);
  int depth = 0;
  int angle = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const Token& tok = t[i];
    if (tok.kind == TokenKind::punct) {
      const std::string& p = tok.text;
      if (p == "(" || p == "[" || p == "{")
        ++depth;
      else if (p == ")" || p == "]" || p == "}")
        --depth;
      else if (p == "<" && i > begin &&
               (t[i - 1].kind == TokenKind::identifier || is_punct(t[i - 1], "::"))) {
        ++angle;
      } else if (p == ">" && angle > 0) {
        --angle;
      } else if (p == "," && depth == 0 && angle == 0) {
        parts.emplace_back();
        continue;
      }
    }
    parts.back().push_back(tok);
  }
  if (parts.size() == 1 && parts[0].empty())
    parts.clear();
  return parts;
}

struct Analyzed {
  ParamType type;
  std::string name; // empty when unnamed
  bool is_reference = false;
};

// OpenCL C's address-space and access qualifiers (both spellings).
bool is_opencl_qualifier(const std::string& w) {
  static constexpr std::string_view words[] = {
      "__global",    "global",     "__constant",   "constant",   "__local",
      "local",       "__private",  "private",      "__read_only", "read_only",
      "__write_only", "write_only", "__read_write", "read_write", "__generic", "generic"};
  return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

// The type (and, when `detect_name`, the declared name) of one parameter's tokens, default
// argument already removed. `opencl`: the tokens are OpenCL C, with address-space qualifiers.
Analyzed analyze_param(std::vector<Token> toks, bool detect_name, bool opencl = false) {
  Analyzed out;
  // Drop attributes and qualifiers that do not matter to the caller.
  std::vector<Token> kept;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (is_attribute_call(toks[i]) && i + 1 < toks.size() && is_punct(toks[i + 1], "(")) {
      i = skip_balanced(toks, i + 1) - 1;
      continue;
    }
    if (is_punct(toks[i], "[") && i + 1 < toks.size() && is_punct(toks[i + 1], "[")) {
      i = skip_balanced(toks, i) - 1; // [[attribute]]
      continue;
    }
    if (toks[i].kind == TokenKind::identifier && is_ignored_qualifier(toks[i].text))
      continue;
    if (opencl && toks[i].kind == TokenKind::identifier && is_opencl_qualifier(toks[i].text)) {
      const std::string& w = toks[i].text;
      if (w == "__local" || w == "local")
        out.type.local_memory = true;
      if (w == "__constant" || w == "constant")
        out.type.is_const = true;
      continue;
    }
    kept.push_back(toks[i]);
  }
  // An array parameter ("float x[]", "float x[16]") is a pointer.
  int pointer_levels = 0;
  while (!kept.empty() && is_punct(kept.back(), "]")) {
    std::size_t open = kept.size() - 1;
    while (open > 0 && !is_punct(kept[open], "["))
      --open;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(open), kept.end());
    ++pointer_levels;
  }
  if (detect_name && kept.size() >= 2 && kept.back().kind == TokenKind::identifier &&
      !detail::is_type_keyword(kept.back().text) && !is_punct(kept[kept.size() - 2], "::")) {
    // The last word is the name when something type-like precedes it ("T a", "int* p").
    bool has_type = false;
    for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
      if (!is_ident(kept[i], "const"))
        has_type = true;
    }
    if (has_type) {
      out.name = kept.back().text;
      kept.pop_back();
    }
  }
  bool seen_pointer = false;
  std::vector<Token> base;
  for (const auto& t : kept) {
    if (is_punct(t, "&")) {
      out.is_reference = true;
    } else if (is_punct(t, "*")) {
      seen_pointer = true;
      ++pointer_levels;
    } else if (is_ident(t, "const")) {
      // const before the first '*' qualifies the value (or the pointee); after it, the pointer
      // itself, which the caller cannot observe.
      if (!seen_pointer)
        out.type.is_const = true;
    } else if (!seen_pointer) {
      base.push_back(t);
    }
  }
  // Base words with qualified names merged ("std", "::", "size_t" → "std::size_t").
  std::vector<std::string> words;
  bool join_next = false;
  for (const auto& t : base) {
    if (is_punct(t, "::")) {
      if (words.empty())
        words.emplace_back();
      words.back() += "::";
      join_next = true;
    } else if (join_next && !words.empty()) {
      words.back() += t.text;
      join_next = false;
    } else {
      words.push_back(t.text);
    }
  }
  ParamType& pt = out.type;
  pt.is_pointer = pointer_levels > 0;
  pt.c_type = (pt.is_const ? "const " : "") + join_tokens(base) + std::string(pointer_levels, '*');
  if (pt.local_memory)
    pt.c_type = "__local " + pt.c_type;
  if (pointer_levels > 1) {
    pt.scalar_size = 8; // the pointee is itself a pointer
  } else if (auto c = detail::resolve_c_type(words)) {
    pt.element = c->element;
    pt.scalar_size = c->size;
    pt.vector_width = c->width;
  }
  return out;
}

std::vector<KernelParam> parse_params(const std::vector<Token>& t, std::size_t open,
                                      std::size_t close, const std::string& kernel, bool opencl) {
  std::vector<KernelParam> params;
  auto parts = split_top_level(t, open + 1, close);
  if (parts.size() == 1 && parts[0].size() == 1 && is_ident(parts[0][0], "void"))
    return params;
  for (auto& part : parts) {
    auto eq =
        std::find_if(part.begin(), part.end(), [](const Token& x) { return is_punct(x, "="); });
    part.erase(eq, part.end()); // default argument
    Analyzed a = analyze_param(part, true, opencl);
    KernelParam p;
    p.name = a.name.empty() ? fmt::format("p{}", params.size()) : a.name;
    p.type = std::move(a.type);
    if (a.is_reference) {
      throw usage_error(fmt::format("kernel {}: parameter '{}' is a reference; kernel parameters "
                                    "are passed by value (use a pointer)",
                                    kernel, join_tokens(part)));
    }
    params.push_back(std::move(p));
  }
  return params;
}

// Template parameter names and defaults from the tokens between "template <" and ">".
void parse_template_params(const std::vector<Token>& t, std::size_t begin, std::size_t end,
                           KernelSignature& sig) {
  for (auto& part : split_top_level(t, begin, end)) {
    auto eq =
        std::find_if(part.begin(), part.end(), [](const Token& x) { return is_punct(x, "="); });
    std::string def;
    if (eq != part.end())
      def = join_tokens(std::vector<Token>(eq + 1, part.end()));
    std::string name;
    for (auto it = part.begin(); it != eq; ++it) {
      if (it->kind == TokenKind::identifier)
        name = it->text;
    }
    sig.template_params.push_back(name);
    sig.template_defaults.push_back(def);
  }
}

// Index of the '>' that closes the '<' at `open` (or end).
std::size_t match_angle(const std::vector<Token>& t, std::size_t open, std::size_t end) {
  int angle = 0;
  int depth = 0;
  for (std::size_t i = open; i < end; ++i) {
    if (t[i].kind != TokenKind::punct)
      continue;
    const std::string& p = t[i].text;
    if (p == "(" || p == "[")
      ++depth;
    else if (p == ")" || p == "]")
      --depth;
    else if (depth == 0 && p == "<")
      ++angle;
    else if (depth == 0 && p == ">" && --angle == 0)
      return i;
  }
  return end;
}

struct Found {
  KernelSignature sig;
  bool is_definition = false;
};

// Parses the declaration around the `__global__` at `g`; false when it is not a kernel
// declaration gpurun can use (an explicit instantiation, malformed text).
bool parse_kernel_at(const std::vector<Token>& t, std::size_t g, bool in_extern_c_block,
                     Found& found, bool opencl = false) {
  KernelSignature& sig = found.sig;
  std::size_t start = g;
  while (start > 0 && !is_punct(t[start - 1], ";") && !is_punct(t[start - 1], "{") &&
         !is_punct(t[start - 1], "}")) {
    --start;
  }
  sig.extern_c = in_extern_c_block;
  for (std::size_t i = start; i < g; ++i) {
    if (is_ident(t[i], "extern") && i + 1 < g && t[i + 1].text == "\"C\"")
      sig.extern_c = true;
    if (is_ident(t[i], "template") && i + 1 < g && is_punct(t[i + 1], "<")) {
      std::size_t close = match_angle(t, i + 1, g);
      sig.is_template = true;
      parse_template_params(t, i + 2, close, sig);
      i = close;
    }
  }
  std::size_t j = g + 1;
  for (; j < t.size(); ++j) {
    if (is_attribute_call(t[j]) && j + 1 < t.size() && is_punct(t[j + 1], "(")) {
      j = skip_balanced(t, j + 1) - 1;
      continue;
    }
    if (is_punct(t[j], "[") && j + 1 < t.size() && is_punct(t[j + 1], "[")) {
      j = skip_balanced(t, j) - 1;
      continue;
    }
    if (is_punct(t[j], "("))
      break;
    if (is_punct(t[j], ";") || is_punct(t[j], "{") || is_punct(t[j], "}") || is_punct(t[j], "<")) {
      return false; // "<" after the name: an explicit specialization or instantiation
    }
  }
  if (j >= t.size() || t[j - 1].kind != TokenKind::identifier)
    return false;
  sig.name = t[j - 1].text;
  sig.line = t[j - 1].line;
  std::size_t close = skip_balanced(t, j) - 1;
  if (close >= t.size() || !is_punct(t[close], ")"))
    return false;
  sig.params = parse_params(t, j, close, sig.name, opencl);
  for (std::size_t k = close + 1; k < t.size(); ++k) {
    if (is_punct(t[k], "{")) {
      found.is_definition = true;
      break;
    }
    if (is_punct(t[k], ";"))
      break;
  }
  return true;
}

} // namespace

std::vector<KernelSignature> find_kernels(std::string_view source) {
  const std::vector<Token> t = detail::tokenize(source);
  std::vector<Found> found;
  // What each open brace belongs to: an `extern "C" { … }` block, a namespace (its name), or
  // something else. Kernels in namespaces are named as NVRTC name expressions need them (ns::k).
  struct Brace {
    bool extern_c = false;
    std::optional<std::string> ns;
  };
  std::vector<Brace> braces;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_punct(t[i], "{")) {
      Brace b;
      b.extern_c = i >= 2 && is_ident(t[i - 2], "extern") && t[i - 1].text == "\"C\"";
      // namespace a { / namespace a::b { / inline namespace v1 { / namespace {
      std::size_t k = i;
      std::string name;
      while (k > 0 && (t[k - 1].kind == TokenKind::identifier || is_punct(t[k - 1], "::")) &&
             !is_ident(t[k - 1], "namespace")) {
        --k;
        name = t[k].text + name;
      }
      if (k > 0 && is_ident(t[k - 1], "namespace"))
        b.ns = name;
      braces.push_back(b);
    } else if (is_punct(t[i], "}")) {
      if (!braces.empty())
        braces.pop_back();
    } else if (is_ident(t[i], "__global__")) {
      const bool in_extern_c =
          std::any_of(braces.begin(), braces.end(), [](const Brace& b) { return b.extern_c; });
      Found f;
      if (!parse_kernel_at(t, i, in_extern_c, f))
        continue;
      std::string prefix;
      for (const auto& b : braces) {
        if (b.ns && !b.ns->empty())
          prefix += *b.ns + "::";
      }
      // extern "C" names are unmangled symbols: the namespace is not part of them.
      if (!f.sig.extern_c)
        f.sig.name = prefix + f.sig.name;
      // A declaration and the later definition of the same kernel are one kernel; the
      // definition's parameter names win.
      auto same = std::find_if(found.begin(), found.end(), [&](const Found& x) {
        return x.sig.name == f.sig.name && x.sig.params.size() == f.sig.params.size() &&
               (!x.is_definition || !f.is_definition);
      });
      if (same == found.end()) {
        found.push_back(std::move(f));
      } else if (f.is_definition) {
        f.sig.extern_c = f.sig.extern_c || same->sig.extern_c;
        *same = std::move(f);
      }
    }
  }
  std::vector<KernelSignature> out;
  out.reserve(found.size());
  for (auto& f : found)
    out.push_back(std::move(f.sig));
  return out;
}

std::vector<KernelSignature> find_opencl_kernels(std::string_view source) {
  const std::vector<Token> t = detail::tokenize(source);
  std::vector<Found> found;
  int depth = 0; // kernels are defined at file scope; `kernel` inside a body is a name
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_punct(t[i], "{")) {
      ++depth;
    } else if (is_punct(t[i], "}")) {
      depth = std::max(depth - 1, 0);
    } else if (depth == 0 && (is_ident(t[i], "__kernel") || is_ident(t[i], "kernel"))) {
      Found f;
      if (!parse_kernel_at(t, i, false, f, true))
        continue;
      // OpenCL C kernels have C linkage: a declaration and its definition are one kernel.
      auto same = std::find_if(found.begin(), found.end(),
                               [&](const Found& x) { return x.sig.name == f.sig.name; });
      if (same == found.end())
        found.push_back(std::move(f));
      else if (f.is_definition)
        *same = std::move(f);
    }
  }
  std::vector<KernelSignature> out;
  for (auto& f : found) {
    f.sig.extern_c = true;
    out.push_back(std::move(f.sig));
  }
  return out;
}

std::optional<KernelSignature> opencl_signature(const std::string& name,
                                                const std::vector<ParamLayout>& layout) {
  KernelSignature sig;
  sig.name = name;
  sig.extern_c = true;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout[i].declaration.empty())
      return std::nullopt;
    Analyzed a = analyze_param(detail::tokenize(layout[i].declaration), true, true);
    sig.params.push_back(
        KernelParam{a.name.empty() ? fmt::format("p{}", i) : a.name, std::move(a.type)});
  }
  return sig;
}

ParamType parse_param_type(std::string_view text) {
  return analyze_param(detail::tokenize(text), false).type;
}

std::string describe(const KernelParam& param) {
  return param.type.c_type + " " + param.name;
}

bool declares_kernel(const std::vector<KernelSignature>& kernels, std::string_view expression) {
  std::string_view base = expression.substr(0, expression.find('<'));
  while (!base.empty() && base.back() == ' ')
    base.remove_suffix(1);
  while (!base.empty() && base.front() == ' ')
    base.remove_prefix(1);
  return std::any_of(kernels.begin(), kernels.end(), [&](const KernelSignature& k) {
    const auto colon = k.name.rfind("::");
    return k.name == base ||
           (colon != std::string::npos && std::string_view(k.name).substr(colon + 2) == base);
  });
}

const KernelSignature& select_kernel(const std::vector<KernelSignature>& kernels,
                                     std::string_view expression) {
  std::string_view base = expression.substr(0, expression.find('<'));
  while (!base.empty() && base.back() == ' ')
    base.remove_suffix(1);
  while (!base.empty() && base.front() == ' ')
    base.remove_prefix(1);
  const KernelSignature* match = nullptr;
  int count = 0;
  for (const auto& k : kernels) {
    if (k.name == base) {
      if (match == nullptr)
        match = &k;
      ++count;
    }
  }
  if (match == nullptr) {
    // "k" also finds "ns::k" when no other kernel has that unqualified name.
    for (const auto& k : kernels) {
      const auto colon = k.name.rfind("::");
      if (colon != std::string::npos && std::string_view(k.name).substr(colon + 2) == base) {
        if (match == nullptr)
          match = &k;
        ++count;
      }
    }
  }
  if (count > 1) {
    throw usage_error(fmt::format("kernel '{}' is overloaded ({} declarations); gpurun cannot "
                                  "choose one by name",
                                  base, count));
  }
  if (match == nullptr) {
    std::vector<std::string> names;
    for (const auto& k : kernels)
      names.push_back(k.name);
    throw usage_error(fmt::format(
        "--kernel: no kernel '{}' in the source{} (kernels: {})", base, did_you_mean(base, names),
        names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
  return *match;
}

KernelSignature instantiate(const KernelSignature& kernel, std::string_view expression) {
  const std::vector<Token> t = detail::tokenize(expression);
  std::vector<std::string> args;
  bool has_list = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_punct(t[i], "<")) {
      has_list = true;
      std::size_t close = match_angle(t, i, t.size());
      if (close == t.size()) {
        throw usage_error(fmt::format("--kernel '{}': unbalanced '<'", expression));
      }
      for (const auto& part : split_top_level(t, i + 1, close))
        args.push_back(join_tokens(part));
      break;
    }
  }
  if (!kernel.is_template) {
    if (has_list) {
      throw usage_error(
          fmt::format("--kernel '{}': kernel {} is not a template", expression, kernel.name));
    }
    return kernel;
  }
  std::size_t required = 0;
  for (std::size_t i = 0; i < kernel.template_params.size(); ++i) {
    if (i >= kernel.template_defaults.size() || kernel.template_defaults[i].empty()) {
      required = i + 1;
    }
  }
  if (args.size() < required || args.size() > kernel.template_params.size()) {
    std::string names;
    for (const auto& n : kernel.template_params)
      names += (names.empty() ? "" : ", ") + n;
    throw usage_error(
        fmt::format("--kernel '{}': kernel {} takes {} template argument{} ({}); got {}",
                    expression, kernel.name, kernel.template_params.size(),
                    kernel.template_params.size() == 1 ? "" : "s", names, args.size()));
  }
  for (std::size_t i = args.size(); i < kernel.template_params.size(); ++i) {
    args.push_back(kernel.template_defaults[i]);
  }
  KernelSignature out = kernel;
  for (auto& p : out.params) {
    std::vector<Token> toks = detail::tokenize(p.type.c_type);
    std::vector<Token> substituted;
    for (const auto& tok : toks) {
      auto it = std::find(kernel.template_params.begin(), kernel.template_params.end(), tok.text);
      if (tok.kind == TokenKind::identifier && it != kernel.template_params.end()) {
        auto repl =
            detail::tokenize(args[static_cast<std::size_t>(it - kernel.template_params.begin())]);
        substituted.insert(substituted.end(), repl.begin(), repl.end());
      } else {
        substituted.push_back(tok);
      }
    }
    p.type = analyze_param(substituted, false).type;
  }
  return out;
}

void check_layout(const KernelSignature& kernel, const std::vector<ParamLayout>& layout) {
  if (layout.size() != kernel.params.size()) {
    throw usage_error(fmt::format("kernel {}: the source declares {} parameters but the compiled "
                                  "kernel has {}",
                                  kernel.name, kernel.params.size(), layout.size()));
  }
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const KernelParam& p = kernel.params[i];
    std::size_t expected = p.type.is_pointer ? 8 : p.type.scalar_size;
    if (expected == 0 || layout[i].size == 0)
      continue; // a struct, an unresolved type or a layout the compiled kernel does not tell
    if (expected != layout[i].size) {
      throw usage_error(fmt::format("kernel {}: parameter {} '{}' is {} bytes in the source but {} "
                                    "bytes in the compiled kernel",
                                    kernel.name, i, describe(p), expected, layout[i].size));
    }
  }
}

} // namespace gpurun
