#pragma once
// What the sanitizers (racecheck, initcheck, synccheck, the device heap's checks) found during
// one launch. Workers report concurrently; one finding is kept per (tool, kind, PTX location
// pair) with a count of how often it happened, as compute-sanitizer folds repeats. After the
// launch the first `limit` findings are shown in full and the rest summarized as counts.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace gpurun::emu {

enum class Tool : std::uint8_t { memcheck, racecheck, initcheck, synccheck };
enum class Severity : std::uint8_t { error, warning };

[[nodiscard]] const char* tool_name(Tool tool) noexcept;

struct Finding {
  Tool tool = Tool::racecheck;
  Severity severity = Severity::error;
  std::string text;        ///< the earliest occurrence in full
  std::uint64_t count = 0; ///< occurrences folded into it
  std::uint64_t order = 0; ///< where the text's occurrence is: occurrence_order()
};

/// Where an occurrence is in the launch, so that reports do not depend on which worker thread
/// got there first: the block's linear index, then the thread's within the block.
[[nodiscard]] constexpr std::uint64_t occurrence_order(std::uint64_t block_linear,
                                                       std::uint32_t thread) noexcept {
  return block_linear << 32 | thread;
}

/// Identity of a finding for folding repeats: tool, kind (tool-specific) and two PTX lines.
struct FindingKey {
  Tool tool;
  std::uint32_t kind;
  std::uint32_t first;
  std::uint32_t second;
  auto operator<=>(const FindingKey&) const = default;
};

class Findings {
public:
  /// Counts one occurrence at `order` (occurrence_order()); the finding keeps the text of its
  /// earliest occurrence. `describe()` (returning that text) runs only for an occurrence earlier
  /// than any seen of `key`, so a hazard repeated by every thread is formatted about once.
  template <class Describe>
  void report(const FindingKey& key, Severity severity, std::uint64_t order,
              Describe&& describe) {
    std::lock_guard lock(m_mutex);
    auto [it, fresh] = m_index.try_emplace(key, m_all.size());
    if (fresh) {
      m_all.push_back(Finding{key.tool, severity, describe(), 0, order});
    } else if (Finding& f = m_all[it->second]; order < f.order) {
      f.text = describe();
      f.order = order;
    }
    ++m_all[it->second].count;
  }
  /// After the launch (no worker running): the findings by their earliest occurrence (block,
  /// then thread), the same whichever worker found them first.
  [[nodiscard]] std::vector<Finding> all() const;
  [[nodiscard]] bool any_error() const noexcept;
  [[nodiscard]] bool empty() const noexcept { return m_all.empty(); }

private:
  std::mutex m_mutex;
  std::map<FindingKey, std::size_t> m_index;
  std::vector<Finding> m_all;
};

/// The report of a launch's findings: a one-line summary ("kernel 'k': racecheck found 2
/// errors and 1 warning …") and the first `limit` findings in full, one per line, then what was
/// left out as counts per tool and severity.
struct FindingsReport {
  std::string summary;
  std::vector<std::string> lines;
};
[[nodiscard]] FindingsReport summarize(const std::vector<Finding>& findings,
                                       const std::string& kernel, std::size_t limit);

} // namespace gpurun::emu
