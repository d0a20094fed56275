#include "base/suggest.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpurun {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein with transpositions of adjacent characters.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), row(m + 1);
  for (std::size_t j = 0; j <= m; ++j)
    prev[j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        row[j] = std::min(row[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(row);
  }
  return prev[m];
}

std::optional<std::string> closest(std::string_view typed,
                                   const std::vector<std::string>& candidates) {
  // A word of one or two letters is too short to guess what it meant.
  const std::size_t allowed = typed.size() < 3 ? 0 : std::max<std::size_t>(1, typed.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance && d > 0) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates) {
  const auto c = closest(typed, candidates);
  return c ? fmt::format(" (did you mean '{}'?)", *c) : std::string();
}

} // namespace gpurun
