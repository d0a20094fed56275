#include "backends/compilers/clang_names.hpp"

#include <cstdlib>
#include <cxxabi.h>
#include <fmt/format.h>
#include <memory>
#include <regex>

namespace gpurun::clang_cuda {
namespace {

std::string without_spaces(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t')
      out += c;
  if (out.starts_with("::"))
    out.erase(0, 2);
  return out;
}

// The name without its outermost template argument lists: "ns::k<int, 4>" → "ns::k".
std::string template_base(const std::string& name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<')
      ++depth;
    else if (c == '>')
      --depth;
    else if (depth == 0)
      out += c;
  }
  return out;
}

} // namespace

std::string instantiation_code(const std::vector<std::string>& expressions) {
  if (expressions.empty())
    return {};
  std::string code = "\n#line 1 \"<gpurun name expressions>\"\n"
                     "[[maybe_unused]] static void __gpurun_instantiate_kernels() {\n";
  for (const auto& e : expressions)
    code += fmt::format("  (void)&{};\n", e);
  code += "}\n";
  return code;
}

std::vector<std::string> ptx_entry_names(const std::string& ptx) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$%][A-Za-z0-9_$]*))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1].str());
  return out;
}

std::optional<std::string> demangled_function_name(const std::string& mangled) {
  if (!mangled.starts_with("_Z"))
    return std::nullopt;
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !text)
    return std::nullopt;
  const std::string s = text.get();
  // The parameter list is the last top-level "(…)"; a template function's return type precedes
  // the name, separated by a space outside any <…>.
  int depth = 0;
  std::size_t params = std::string::npos;
  for (std::size_t i = s.size(); i-- > 0;) {
    const char c = s[i];
    if (c == ')' || c == '>')
      ++depth;
    else if (c == '<')
      --depth;
    else if (c == '(' && --depth == 0) {
      params = i;
      break;
    }
  }
  if (params == std::string::npos)
    return std::nullopt;
  const std::string head = s.substr(0, params);
  depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '<' || head[i] == '(')
      ++depth;
    else if (head[i] == '>' || head[i] == ')')
      --depth;
    else if (head[i] == ' ' && depth == 0)
      start = i + 1;
  }
  return head.substr(start);
}

std::optional<std::string> find_lowered_name(const std::string& expression,
                                             const std::vector<std::string>& entries) {
  const std::string wanted = without_spaces(expression);
  const std::string wanted_base = template_base(wanted);
  std::vector<std::string> same_template;
  for (const auto& entry : entries) {
    if (entry == wanted) // an extern "C" kernel is its own symbol
      return entry;
    const auto name = demangled_function_name(entry);
    if (!name)
      continue;
    const std::string have = without_spaces(*name);
    if (have == wanted)
      return entry;
    if (template_base(have) == wanted_base)
      same_template.push_back(entry);
  }
  if (same_template.size() == 1)
    return same_template.front();
  return std::nullopt;
}

} // namespace gpurun::clang_cuda
