#include "base/regex.hpp"

#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {

using State = Regex::State;
using Op = Regex::Op;
using Fragment = std::vector<State>; ///< states with relative jumps, so a fragment can be copied
using Class = std::bitset<256>;

constexpr std::size_t k_unbounded = std::numeric_limits<std::size_t>::max();

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_word(char c) {
  return is_letter(c) || is_digit(c) || c == '_';
}
int hex_value(char c) {
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

Class class_of(bool (*member)(char)) {
  Class set;
  for (int c = 0; c < 256; ++c)
    set[static_cast<std::size_t>(c)] = member(static_cast<char>(c));
  return set;
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_not_line_break(char c) {
  return c != '\n' && c != '\r';
}

/// \d \D \w \W \s \S, or nullopt for another letter.
std::optional<Class> class_escape(char letter) {
  switch (letter) {
  case 'd':
    return class_of(is_digit);
  case 'D':
    return ~class_of(is_digit);
  case 'w':
    return class_of(is_word);
  case 'W':
    return ~class_of(is_word);
  case 's':
    return class_of(is_space);
  case 'S':
    return ~class_of(is_space);
  default:
    return std::nullopt;
  }
}

/// Parses a pattern left to right with explicit stacks (Thompson's construction over the
/// operands of the current group and the groups around it), so that nesting costs heap, not
/// stack.
class Compiler {
public:
  Compiler(std::string_view pattern, std::string_view label, std::vector<Class>& classes)
      : m_pattern(pattern), m_label(label), m_classes(classes) {}

  Fragment run() {
    while (m_pos < m_pattern.size()) {
      const std::size_t at = m_pos;
      const char c = m_pattern[m_pos++];
      switch (c) {
      case '(':
        open_group(at);
        break;
      case ')':
        if (m_frames.empty())
          fail(at, "')' closes no '('");
        close_group();
        break;
      case '|':
        end_alternative();
        ++m_alternatives;
        m_quantifiable = false;
        break;
      case '*':
        quantify(at, 0, k_unbounded);
        break;
      case '+':
        quantify(at, 1, k_unbounded);
        break;
      case '?':
        quantify(at, 0, 1);
        break;
      case '{':
        if (const auto count = read_count(at))
          quantify(at, count->first, count->second);
        else
          operand(byte_fragment(single('{')), true);
        break;
      case '^':
        operand({State{Op::text_begin, 0, 0}}, false);
        break;
      case '$':
        operand({State{Op::text_end, 0, 0}}, false);
        break;
      case '.':
        operand(byte_fragment(class_of(is_not_line_break)), true);
        break;
      case '[':
        operand(byte_fragment(read_class(at)), true);
        break;
      case '\\':
        escape(at);
        break;
      default:
        operand(byte_fragment(single(c)), true);
        break;
      }
    }
    if (!m_frames.empty())
      fail(m_frames.back().open, "'(' is not closed");
    end_group();
    Fragment program = pop();
    program.push_back({Op::match, 0, 0});
    return program;
  }

private:
  /// A group the parser is inside of: the state of the enclosing one.
  struct Frame {
    std::size_t atoms = 0;
    std::size_t alternatives = 0;
    std::size_t open = 0; ///< the position of its '('
  };

  [[noreturn]] void fail(std::size_t at, std::string_view why) const {
    throw usage_error(
        fmt::format("{}: not a regular expression: {} (at character {})", m_label, why, at + 1));
  }
  [[noreturn]] void too_large() const {
    throw usage_error(fmt::format("{}: the pattern's automaton would have more than {} states "
                                  "(smaller counts in {{n,m}})",
                                  m_label, Regex::k_max_states));
  }

  static Class single(char c) {
    Class set;
    set[static_cast<unsigned char>(c)] = true;
    return set;
  }

  Fragment byte_fragment(const Class& set) {
    m_classes.push_back(set);
    return {State{Op::byte, static_cast<std::int32_t>(m_classes.size() - 1), 0}};
  }

  void push(Fragment fragment) {
    m_live += fragment.size();
    if (m_live > Regex::k_max_states)
      too_large();
    m_stack.push_back(std::move(fragment));
  }
  Fragment pop() {
    Fragment top = std::move(m_stack.back());
    m_stack.pop_back();
    m_live -= top.size();
    return top;
  }
  /// Refuses a fragment of `size` states in place of `replaced` before it is built.
  void check_growth(std::size_t replaced, std::size_t size) const {
    if (m_live - replaced + size > Regex::k_max_states)
      too_large();
  }

  /// An operand of the current alternative: joined to the one before it once a third comes (the
  /// last one may still take a quantifier).
  void operand(Fragment fragment, bool quantifiable) {
    if (m_atoms == 2)
      concatenate();
    push(std::move(fragment));
    ++m_atoms;
    m_quantifiable = quantifiable;
  }

  void concatenate() {
    Fragment second = pop();
    Fragment first = pop();
    first.insert(first.end(), second.begin(), second.end());
    push(std::move(first));
    m_atoms = 1;
  }

  /// Leaves the current alternative as one fragment on the stack (an empty one matches "").
  void end_alternative() {
    if (m_atoms == 0)
      push({});
    else if (m_atoms == 2)
      concatenate();
    m_atoms = 0;
  }

  /// Leaves the current group as one fragment: its alternatives joined.
  void end_group() {
    end_alternative();
    for (; m_alternatives > 0; --m_alternatives) {
      Fragment second = pop();
      Fragment first = pop();
      check_growth(0, first.size() + second.size() + 2);
      Fragment either;
      either.reserve(first.size() + second.size() + 2);
      either.push_back({Op::split, 1, static_cast<std::int32_t>(first.size() + 2)});
      either.insert(either.end(), first.begin(), first.end());
      either.push_back({Op::jump, static_cast<std::int32_t>(second.size() + 1), 0});
      either.insert(either.end(), second.begin(), second.end());
      push(std::move(either));
    }
  }

  void open_group(std::size_t at) {
    if (m_pos < m_pattern.size() && m_pattern[m_pos] == '?') {
      if (m_pos + 1 < m_pattern.size() && m_pattern[m_pos + 1] == ':')
        m_pos += 2;
      else
        fail(at, "lookaround and named groups ((?= (?! (?<= (?<!  (?<name>) are not supported");
    }
    if (m_atoms == 2)
      concatenate();
    m_frames.push_back({m_atoms, m_alternatives, at});
    m_atoms = 0;
    m_alternatives = 0;
    m_quantifiable = false;
  }

  void close_group() {
    end_group();
    const Frame outer = m_frames.back();
    m_frames.pop_back();
    m_atoms = outer.atoms + 1;
    m_alternatives = outer.alternatives;
    m_quantifiable = true;
  }

  /// {n}, {n,}, {n,m} after the '{' at `at`; nullopt (and nothing read) when the text there is
  /// not a count, so that the '{' is a literal character.
  std::optional<std::pair<std::size_t, std::size_t>> read_count(std::size_t at) {
    std::size_t i = m_pos;
    const auto number = [&]() -> std::optional<std::size_t> {
      if (i >= m_pattern.size() || !is_digit(m_pattern[i]))
        return std::nullopt;
      std::size_t value = 0;
      while (i < m_pattern.size() && is_digit(m_pattern[i])) {
        value = std::min<std::size_t>(value * 10 + static_cast<std::size_t>(m_pattern[i] - '0'),
                                      Regex::k_max_count + 1);
        ++i;
      }
      return value;
    };
    const auto low = number();
    if (!low)
      return std::nullopt;
    std::size_t high = *low;
    if (i < m_pattern.size() && m_pattern[i] == ',') {
      ++i;
      const auto given = number();
      high = given ? *given : k_unbounded;
    }
    if (i >= m_pattern.size() || m_pattern[i] != '}')
      return std::nullopt;
    m_pos = i + 1;
    if (*low > Regex::k_max_count || (high != k_unbounded && high > Regex::k_max_count))
      throw usage_error(fmt::format("{}: a count in {{n,m}} above {} (at character {})", m_label,
                                    Regex::k_max_count, at + 1));
    if (high < *low)
      fail(at, fmt::format("{{{},{}}}: the first count is above the second", *low, high));
    return std::pair{*low, high};
  }

  void quantify(std::size_t at, std::size_t low, std::size_t high) {
    if (m_atoms == 0 || !m_quantifiable)
      fail(at, fmt::format("'{}' has nothing to repeat", m_pattern[at]));
    if (m_pos < m_pattern.size() && m_pattern[m_pos] == '?')
      ++m_pos; // lazy: the same texts match
    // A quantifier may follow (a*+), as std::regex, which --filter used before, allows.
    const Fragment body = pop();
    const std::size_t size = body.size();
    const std::size_t optional_copies = high == k_unbounded ? 1 : high - low;
    const std::size_t extra = high == k_unbounded ? 2 : 1;
    check_growth(0, size * low + (size + extra) * optional_copies);
    Fragment out;
    out.reserve(size * low + (size + extra) * optional_copies);
    for (std::size_t i = 0; i < low; ++i)
      out.insert(out.end(), body.begin(), body.end());
    const auto n = static_cast<std::int32_t>(size);
    if (high == k_unbounded) {
      out.push_back({Op::split, 1, n + 2});
      out.insert(out.end(), body.begin(), body.end());
      out.push_back({Op::jump, -(n + 1), 0});
    } else {
      for (std::size_t i = 0; i < optional_copies; ++i) {
        out.push_back({Op::split, 1, n + 1});
        out.insert(out.end(), body.begin(), body.end());
      }
    }
    push(std::move(out));
  }

  /// The byte an escape outside \d \w \s and \b stands for; `letter` follows the '\' at `at`.
  char escaped_byte(std::size_t at, char letter) {
    switch (letter) {
    case 't':
      return '\t';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 'f':
      return '\f';
    case 'v':
      return '\v';
    case '0':
      if (m_pos < m_pattern.size() && is_digit(m_pattern[m_pos]))
        fail(at, "octal escapes are not supported (\\xHH is)");
      return '\0';
    case 'x': {
      const int high = m_pos < m_pattern.size() ? hex_value(m_pattern[m_pos]) : -1;
      const int low = m_pos + 1 < m_pattern.size() ? hex_value(m_pattern[m_pos + 1]) : -1;
      if (high < 0 || low < 0)
        fail(at, "\\x needs two hexadecimal digits");
      m_pos += 2;
      return static_cast<char>(high * 16 + low);
    }
    default:
      break;
    }
    if (is_digit(letter))
      fail(at, fmt::format("backreferences (\\{}) are not supported", letter));
    if (is_letter(letter))
      fail(at, fmt::format("unknown escape \\{}", letter));
    return letter; // escaped punctuation, a space, a byte of a UTF-8 character
  }

  void escape(std::size_t at) {
    if (m_pos >= m_pattern.size())
      fail(at, "'\\' ends the pattern");
    const char letter = m_pattern[m_pos++];
    if (const auto set = class_escape(letter)) {
      operand(byte_fragment(*set), true);
      return;
    }
    if (letter == 'b' || letter == 'B') {
      operand({State{letter == 'b' ? Op::word_boundary : Op::not_word_boundary, 0, 0}}, false);
      return;
    }
    operand(byte_fragment(single(escaped_byte(at, letter))), true);
  }

  /// One member of a class: a byte, or the set of a class escape.
  struct Member {
    char byte = 0;
    std::optional<Class> set;
  };

  Member class_member(std::size_t open) {
    if (m_pos >= m_pattern.size())
      fail(open, "'[' is not closed");
    const std::size_t at = m_pos;
    const char c = m_pattern[m_pos++];
    if (c != '\\')
      return {c, std::nullopt};
    if (m_pos >= m_pattern.size())
      fail(open, "'[' is not closed");
    const char letter = m_pattern[m_pos++];
    if (auto set = class_escape(letter))
      return {0, std::move(set)};
    if (letter == 'b')
      return {'\b', std::nullopt}; // a backspace, in a class
    return {escaped_byte(at, letter), std::nullopt};
  }

  /// The class after the '[' at `open`, through its ']'.
  Class read_class(std::size_t open) {
    Class set;
    bool negated = false;
    if (m_pos < m_pattern.size() && m_pattern[m_pos] == '^') {
      negated = true;
      ++m_pos;
    }
    for (;;) {
      if (m_pos >= m_pattern.size())
        fail(open, "'[' is not closed");
      if (m_pattern[m_pos] == ']') {
        ++m_pos;
        break;
      }
      const std::size_t at = m_pos;
      const Member first = class_member(open);
      const bool range =
          m_pos + 1 < m_pattern.size() && m_pattern[m_pos] == '-' && m_pattern[m_pos + 1] != ']';
      if (!range) {
        if (first.set)
          set |= *first.set;
        else
          set[static_cast<unsigned char>(first.byte)] = true;
        continue;
      }
      ++m_pos; // '-'
      const Member last = class_member(open);
      if (first.set || last.set) {
        // [\d-z]: no range, as ECMAScript's web compatibility reads it: \d, '-' and 'z'
        for (const Member* m : {&first, &last})
          if (m->set)
            set |= *m->set;
          else
            set[static_cast<unsigned char>(m->byte)] = true;
        set['-'] = true;
        continue;
      }
      const auto low = static_cast<unsigned char>(first.byte);
      const auto high = static_cast<unsigned char>(last.byte);
      if (low > high)
        fail(at, "a range whose end is below its start");
      for (unsigned c = low; c <= high; ++c)
        set[c] = true;
    }
    return negated ? ~set : set;
  }

  std::string_view m_pattern;
  std::string_view m_label;
  std::vector<Class>& m_classes;
  std::size_t m_pos = 0;
  std::size_t m_atoms = 0;        ///< operands of the current alternative on the stack (0–2)
  std::size_t m_alternatives = 0; ///< finished alternatives of the current group on the stack
  bool m_quantifiable = false;    ///< the last operand may take a quantifier
  std::vector<Frame> m_frames;
  std::vector<Fragment> m_stack;
  std::size_t m_live = 0; ///< states on the stack
};

/// A set of automaton states with constant-time insert, test and clear (Briggs and Torczon's
/// sparse set), in insertion order.
class StateSet {
public:
  explicit StateSet(std::size_t capacity) : m_index(capacity), m_members(capacity) {}
  bool insert(std::uint32_t state) {
    const std::uint32_t i = m_index[state];
    if (i < m_size && m_members[i] == state)
      return false;
    m_index[state] = m_size;
    m_members[m_size++] = state;
    return true;
  }
  void clear() { m_size = 0; }
  [[nodiscard]] const std::uint32_t* begin() const { return m_members.data(); }
  [[nodiscard]] const std::uint32_t* end() const { return m_members.data() + m_size; }

private:
  std::vector<std::uint32_t> m_index;
  std::vector<std::uint32_t> m_members;
  std::uint32_t m_size = 0;
};

} // namespace

Regex Regex::compile(std::string_view pattern, std::string_view label) {
  if (pattern.size() > k_max_length)
    throw usage_error(fmt::format("{}: a pattern of {} characters, longer than the {} a filter "
                                  "may have",
                                  label, pattern.size(), k_max_length));
  Regex regex;
  regex.m_states = Compiler(pattern, label, regex.m_classes).run();
  return regex;
}

bool Regex::search(std::string_view text) const {
  StateSet current(m_states.size());
  StateSet next(m_states.size());
  std::vector<std::uint32_t> pending;
  // Adds `start` and every state reachable from it without consuming a byte at `pos` to `set`;
  // true when that reaches the match.
  const auto follow = [&](StateSet& set, std::uint32_t start, std::size_t pos) {
    pending.assign(1, start);
    while (!pending.empty()) {
      const std::uint32_t s = pending.back();
      pending.pop_back();
      if (!set.insert(s))
        continue;
      const State& state = m_states[s];
      switch (state.op) {
      case Op::byte:
        break;
      case Op::match:
        return true;
      case Op::jump:
        pending.push_back(s + static_cast<std::uint32_t>(state.a));
        break;
      case Op::split:
        pending.push_back(s + static_cast<std::uint32_t>(state.b));
        pending.push_back(s + static_cast<std::uint32_t>(state.a));
        break;
      case Op::text_begin:
        if (pos == 0)
          pending.push_back(s + 1);
        break;
      case Op::text_end:
        if (pos == text.size())
          pending.push_back(s + 1);
        break;
      case Op::word_boundary:
      case Op::not_word_boundary: {
        const bool before = pos > 0 && is_word(text[pos - 1]);
        const bool after = pos < text.size() && is_word(text[pos]);
        if ((before != after) == (state.op == Op::word_boundary))
          pending.push_back(s + 1);
        break;
      }
      }
    }
    return false;
  };
  for (std::size_t pos = 0;; ++pos) {
    // A match may start at every position (a search, not a whole-text match).
    if (follow(current, 0, pos))
      return true;
    if (pos == text.size())
      return false;
    const auto byte = static_cast<unsigned char>(text[pos]);
    next.clear();
    for (const std::uint32_t s : current) {
      const State& state = m_states[s];
      if (state.op == Op::byte && m_classes[static_cast<std::size_t>(state.a)][byte] &&
          follow(next, s + 1, pos + 1))
        return true;
    }
    std::swap(current, next);
  }
}

} // namespace gpurun
