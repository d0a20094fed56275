// Modifier bookkeeping for the instruction selectors, and the one error every unsupported
// instruction produces.
#include <fmt/format.h>

#include "backends/cpu/emu/decoder.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

Modifiers::Modifiers(const std::vector<std::string>& list)
    : m_list(list), m_used(list.size(), false) {}

bool Modifiers::take(std::string_view name) {
  for (std::size_t i = 0; i < m_list.size(); ++i)
    if (!m_used[i] && m_list[i] == name) {
      m_used[i] = true;
      return true;
    }
  return false;
}

std::string_view Modifiers::take_any(std::initializer_list<std::string_view> names) {
  for (std::size_t i = 0; i < m_list.size(); ++i)
    if (!m_used[i])
      for (auto n : names)
        if (m_list[i] == n) {
          m_used[i] = true;
          return n;
        }
  return {};
}

std::vector<Type> Modifiers::take_types() {
  std::vector<Type> types;
  for (std::size_t i = 0; i < m_list.size(); ++i)
    if (!m_used[i])
      if (auto t = parse_type(m_list[i])) {
        m_used[i] = true;
        types.push_back(*t);
      }
  return types;
}

std::vector<std::string> Modifiers::leftover() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < m_list.size(); ++i)
    if (!m_used[i])
      out.push_back(m_list[i]);
  return out;
}

void throw_unsupported(const ptx::Instruction& in, std::string_view why) {
  std::string text = in.opcode;
  for (const auto& m : in.modifiers)
    text += "." + m;
  throw UnsupportedInstruction(fmt::format("unsupported PTX instruction '{}' at line {}{}", text,
                                           in.line,
                                           why.empty() ? "" : fmt::format(" ({})", why)));
}

} // namespace gpurun::emu
