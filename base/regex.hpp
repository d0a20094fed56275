#pragma once
// The regular expressions of `bench --filter`: ECMAScript's syntax without backreferences and
// lookaround, matched by a Thompson automaton that advances every state of the pattern together
// over the text. The time is linear in the text (times the pattern's size), the memory is bounded
// by the pattern, and neither the compiler nor the matcher recurses, so no pattern and no text can
// exhaust the stack or take exponential time, as std::regex's backtracking can.
//
// Syntax (docs/bench.md): literal characters and escaped punctuation (\. \( \\ …); `.` (any
// character but a line break); classes [abc], [^a-z], with \d \w \s inside; \d \D \w \W \s \S;
// \t \n \r \f \v \0 \xHH; \b \B (word boundaries); ^ and $ (the text's start and end); groups
// ( ) and (?: ); alternatives |; the quantifiers * + ? {n} {n,} {n,m} (their lazy forms *? …
// are accepted: they match the same texts; quantifiers may follow each other, a*+ being (a*)+, as
// std::regex, which --filter used before, takes them). A '{' that starts no count is a literal
// character.
// Characters are bytes: a UTF-8 character in the pattern matches itself in the text.
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gpurun {

class Regex {
public:
  /// The longest pattern, in bytes.
  static constexpr std::size_t k_max_length = 4096;
  /// The largest count of {n,m}.
  static constexpr std::size_t k_max_count = 1000;
  /// The most automaton states a pattern may compile to, counts expanded: a search takes at most
  /// this many steps per byte of the text.
  static constexpr std::size_t k_max_states = 10'000;

  /// Compiles `pattern`. Throws usage Error "`label`: not a regular expression: WHY" (with the
  /// position, counted from 1, of what is wrong), or "`label`: WHY" for a pattern beyond the
  /// limits.
  [[nodiscard]] static Regex compile(std::string_view pattern, std::string_view label);

  /// Whether the pattern matches somewhere in `text` (ECMAScript's search, as std::regex_search;
  /// anchor with ^ and $ to match the whole text).
  [[nodiscard]] bool search(std::string_view text) const;

  enum class Op : std::uint8_t {
    byte,              ///< consumes a byte of class `a`
    split,             ///< continues at this + a and at this + b
    jump,              ///< continues at this + a
    text_begin,        ///< ^
    text_end,          ///< $
    word_boundary,     ///< \b
    not_word_boundary, ///< \B
    match,
  };
  /// One automaton state; jumps are relative to the state's own index.
  struct State {
    Op op = Op::match;
    std::int32_t a = 0;
    std::int32_t b = 0;
  };

  /// The automaton, for tests.
  [[nodiscard]] const std::vector<State>& states() const noexcept { return m_states; }

private:
  std::vector<State> m_states;
  std::vector<std::bitset<256>> m_classes;
};

} // namespace gpurun
