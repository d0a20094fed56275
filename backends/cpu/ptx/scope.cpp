#include "backends/cpu/ptx/scope.hpp"

#include <algorithm>
#include <string>

namespace gpurun::ptx {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) {
    return false;
  }
  for (char c : s) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

// PTX range members are spelled without leading zeros: %r<10> declares %r0 … %r9, never %r01.
bool index_below(std::string_view digits, int count) {
  if (!all_digits(digits) || (digits.size() > 1 && digits[0] == '0') || digits.size() > 9) {
    return false;
  }
  return std::stoi(std::string(digits)) < count;
}

} // namespace

void ScopeStack::reset() {
  m_scopes.clear();
  m_scalars.clear();
  m_ranges.clear();
  m_register_scalars.clear();
  m_register_ranges.clear();
  m_counter = 0;
  m_active_renames = 0;
  m_renames_per_scope.clear();
}

void ScopeStack::push() {
  m_scopes.emplace_back();
  m_renames_per_scope.push_back(0);
}

void ScopeStack::pop() {
  if (m_scopes.empty()) {
    return;
  }
  m_active_renames -= m_renames_per_scope.back();
  m_renames_per_scope.pop_back();
  m_scopes.pop_back();
}

bool ScopeStack::range_member_taken(std::string_view name) const {
  // "%rd12" could be member 12 of %rd, member 2 of %rd1, …: try every digit suffix.
  std::size_t first_digit = name.size();
  while (first_digit > 0 && name[first_digit - 1] >= '0' && name[first_digit - 1] <= '9') {
    --first_digit;
  }
  for (std::size_t split = first_digit; split < name.size(); ++split) {
    auto it = m_ranges.find(std::string(name.substr(0, split)));
    if (it != m_ranges.end() && index_below(name.substr(split), it->second)) {
      return true;
    }
  }
  return false;
}

bool ScopeStack::is_declared(std::string_view name) const {
  return m_scalars.count(std::string(name)) != 0 || range_member_taken(name);
}

void ScopeStack::mark_register(std::string_view spelled, int count) {
  if (count == 0) {
    m_register_scalars.emplace(spelled);
    return;
  }
  int& largest = m_register_ranges[std::string(spelled)];
  largest = std::max(largest, count);
}

bool ScopeStack::is_register(std::string_view spelled) const {
  if (m_register_scalars.count(std::string(spelled)) != 0) {
    return true;
  }
  std::size_t first_digit = spelled.size();
  while (first_digit > 0 && spelled[first_digit - 1] >= '0' && spelled[first_digit - 1] <= '9') {
    --first_digit;
  }
  for (std::size_t split = first_digit; split < spelled.size(); ++split) {
    auto it = m_register_ranges.find(std::string(spelled.substr(0, split)));
    if (it != m_register_ranges.end() && index_below(spelled.substr(split), it->second)) {
      return true;
    }
  }
  return false;
}

std::string ScopeStack::fresh(std::string_view name, std::string_view suffix) {
  while (true) {
    std::string candidate = std::string(name) + "$" + std::to_string(++m_counter);
    candidate += suffix;
    if (m_scalars.count(candidate) == 0 && m_ranges.count(candidate) == 0) {
      return candidate;
    }
  }
}

std::string ScopeStack::declare(std::string_view name) {
  if (m_scopes.empty()) {
    push();
  }
  std::string key(name);
  std::string spelled = key;
  if (is_declared(name)) {
    spelled = fresh(name, "");
    m_scopes.back().scalars.emplace(key, spelled);
    ++m_renames_per_scope.back();
    ++m_active_renames;
  }
  m_scalars.insert(spelled);
  return spelled;
}

std::string ScopeStack::declare_range(std::string_view base, int count) {
  if (m_scopes.empty()) {
    push();
  }
  bool taken = m_ranges.count(std::string(base)) != 0;
  // Look the members up one by one when that is cheaper than scanning every scalar, so that a big
  // function full of small inline-asm scopes stays linear.
  if (!taken && static_cast<std::size_t>(count) <= m_scalars.size()) {
    for (int i = 0; i < count && !taken; ++i) {
      taken = is_declared(std::string(base) + std::to_string(i));
    }
  } else {
    for (const std::string& s : m_scalars) {
      if (taken) {
        break;
      }
      if (s.size() > base.size() && s.compare(0, base.size(), base) == 0 &&
          index_below(std::string_view(s).substr(base.size()), count)) {
        taken = true;
      }
    }
  }
  std::string spelled(base);
  if (taken) {
    spelled = fresh(base, "_");
    m_scopes.back().ranges.push_back(RangeRename{std::string(base), count, spelled});
    ++m_renames_per_scope.back();
    ++m_active_renames;
  }
  int& largest = m_ranges[spelled];
  largest = std::max(largest, count);
  return spelled;
}

std::string ScopeStack::resolve(std::string_view name) const {
  if (m_active_renames == 0) {
    return std::string(name);
  }
  for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope) {
    if (!scope->scalars.empty()) {
      auto it = scope->scalars.find(std::string(name));
      if (it != scope->scalars.end()) {
        return it->second;
      }
    }
    for (const RangeRename& r : scope->ranges) {
      if (name.size() > r.base.size() && name.compare(0, r.base.size(), r.base) == 0 &&
          index_below(name.substr(r.base.size()), r.count)) {
        return r.new_base + std::string(name.substr(r.base.size()));
      }
    }
  }
  return std::string(name);
}

} // namespace gpurun::ptx
