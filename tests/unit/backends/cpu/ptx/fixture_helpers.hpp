#pragma once
// Shared by the PTX front-end tests: loading the NVRTC fixtures and finding things in the AST.

#include <fstream>
#include <sstream>
#include <string>

#include "backends/cpu/ptx/ast.hpp"
#include "backends/cpu/ptx/parser.hpp"
#include "support/test_support.hpp"

namespace gpurun::ptx::test {

inline std::string read_fixture(const std::string& name) {
  const auto path = gpurun::test::source_dir() / "tests" / "data" / "ptx" / (name + ".ptx");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline Module parse_fixture(const std::string& name) {
  return parse_module(read_fixture(name), name + ".ptx");
}

/// The instruction that starts on PTX line `line`, or nullptr.
inline const Instruction* instruction_at(const Function& f, int line) {
  for (const Statement& s : f.body) {
    if (s.instruction && s.instruction->line == line) {
      return &*s.instruction;
    }
  }
  return nullptr;
}

/// Instructions whose opcode + modifiers, joined by dots, equal `text`.
inline int count_instructions(const Function& f, const std::string& text) {
  int n = 0;
  for (const Statement& s : f.body) {
    if (!s.instruction) {
      continue;
    }
    std::string full = s.instruction->opcode;
    for (const std::string& m : s.instruction->modifiers) {
      full += "." + m;
    }
    n += full == text ? 1 : 0;
  }
  return n;
}

} // namespace gpurun::ptx::test
