#include "backends/cuda/device_assert.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace gpurun::cuda {
namespace {

bool is_assertion(std::string_view line) {
  constexpr std::string_view block = "block: [", thread = "], thread: [",
                             condition = "] Assertion `", end = "` failed.";
  const auto b = line.find(block);
  if (b == std::string_view::npos || b < 2 || line.substr(b - 2, 2) != ": ")
    return false;
  const auto t = line.find(thread, b + block.size());
  if (t == std::string_view::npos)
    return false;
  const auto c = line.find(condition, t + thread.size());
  return c != std::string_view::npos && line.size() >= c + condition.size() + end.size() &&
         line.ends_with(end);
}

} // namespace

AssertionLines find_assertions(std::string_view text) {
  AssertionLines found;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (line.ends_with('\r'))
      line.remove_suffix(1);
    if (!is_assertion(line))
      continue;
    if (found.count++ == 0)
      found.first = line;
  }
  return found;
}

std::string describe_assertion(std::string_view kernel, const AssertionLines& lines) {
  std::string text = fmt::format("kernel '{}' failed an assertion: {}", kernel, lines.first);
  if (lines.count > 1)
    text +=
        fmt::format(" (and {} more {})", lines.count - 1, lines.count == 2 ? "thread" : "threads");
  return text;
}

bool calls_assertfail(std::span<const std::byte> image) {
  constexpr std::string_view name = "__assertfail";
  const auto* begin = reinterpret_cast<const char*>(image.data());
  const auto* end = begin + image.size();
  return std::search(begin, end, std::boyer_moore_horspool_searcher(name.begin(), name.end())) !=
         end;
}

} // namespace gpurun::cuda
