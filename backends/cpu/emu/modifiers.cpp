// Modifier bookkeeping for the instruction selectors, and the one error every unsupported
// instruction produces.
#include <fmt/format.h>

#include "backends/cpu/emu/decoder.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

namespace {

// State spaces with a sub-space (`shared::cta`, `shared::cluster`, `param::entry`) become two
// modifiers, the space and its scope, so selectors take the space as they do without one. Other
// `::` modifiers (`L2::cache_hint`, `L1::evict_last`) stay whole.
std::vector<std::string> split_subspaces(const std::vector<std::string>& list) {
  std::vector<std::string> out;
  out.reserve(list.size());
  for (const std::string& m : list) {
    const auto sep = m.find("::");
    const std::string_view space = std::string_view(m).substr(0, sep);
    if (sep != std::string::npos && (space == "shared" || space == "param")) {
      out.emplace_back(space);
      out.emplace_back(m.substr(sep + 2));
    } else {
      out.push_back(m);
    }
  }
  return out;
}

} // namespace

Modifiers::Modifiers(const std::vector<std::string>& list)
    : m_list(split_subspaces(list)), m_used(m_list.size(), false) {}

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
