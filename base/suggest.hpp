#pragma once
// "Did you mean": the known word closest to a mistyped one, by edit distance.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun {

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `typed`, when it is near enough to be what was meant (at most a third
/// of the word's length in edits, at least one; none for words shorter than three letters); none
/// otherwise. Ties go to the
/// candidate listed first.
[[nodiscard]] std::optional<std::string> closest(std::string_view typed,
                                                 const std::vector<std::string>& candidates);

/// " (did you mean 'X'?)" for the closest candidate, or "" when none is near.
[[nodiscard]] std::string did_you_mean(std::string_view typed,
                                       const std::vector<std::string>& candidates);

} // namespace gpurun
