#pragma once
// Nested `{ }` scopes of a PTX function body. The AST is flat, so a name that an inner scope
// declares again gets a unique spelling, and every use inside that scope is rewritten to it.
// Scalars become "name$K"; a register range `%r<N>` becomes the base "%r$K_" so that its members
// ("%r$K_0" …) cannot collide with another range's members.

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gpurun::ptx {

class ScopeStack {
public:
  /// Forgets everything: a new function begins.
  void reset();
  void push();
  void pop();
  [[nodiscard]] std::size_t depth() const { return m_scopes.size(); }

  /// Declares a scalar name (register, variable or parameter) in the innermost scope; returns the
  /// name to use in the flat AST.
  [[nodiscard]] std::string declare(std::string_view name);
  /// Declares the register range base<count> in the innermost scope; returns the base to use.
  [[nodiscard]] std::string declare_range(std::string_view base, int count);

  /// The flat-AST spelling of a name used in the current scope (unchanged when not renamed).
  [[nodiscard]] std::string resolve(std::string_view name) const;
  /// Whether a register name was declared anywhere in this function so far.
  [[nodiscard]] bool is_declared(std::string_view name) const;

  /// Records that `spelled` (what declare() returned) names a register, or with a count, that
  /// `spelled` is the base of a register range (what declare_range() returned).
  void mark_register(std::string_view spelled, int count = 0);
  /// Whether a flat-AST name (what resolve() returned) is a register of this function: PTX lets
  /// a register be named like a variable (`.reg .u32 start;`), so the spelling alone cannot tell.
  [[nodiscard]] bool is_register(std::string_view spelled) const;

private:
  struct RangeRename {
    std::string base;
    int count = 0;
    std::string new_base;
  };
  struct Scope {
    std::unordered_map<std::string, std::string> scalars;
    std::vector<RangeRename> ranges;
  };

  [[nodiscard]] bool range_member_taken(std::string_view name) const;
  [[nodiscard]] std::string fresh(std::string_view name, std::string_view suffix);

  std::vector<Scope> m_scopes;
  std::unordered_set<std::string> m_scalars;     // every scalar declared in the function
  std::unordered_map<std::string, int> m_ranges; // range base → largest count declared
  std::unordered_set<std::string> m_register_scalars;
  std::unordered_map<std::string, int> m_register_ranges; // base → largest count
  int m_counter = 0;
  int m_active_renames = 0; // renames in open scopes; 0 keeps resolve() a plain copy
  std::vector<int> m_renames_per_scope;
};

} // namespace gpurun::ptx
