// Shard results as merge reads them (base/json_read, bench/result_json, bench/merge): up to four
// JSON documents, separated by a line "---", each a shard's result → one merged report, written
// again as JSON.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "base/json_text.hpp"
#include "bench/merge.hpp"
#include "bench/result_json.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  constexpr std::string_view k_separator = "\n---\n";
  std::string_view text = fuzz::as_text(data, size);
  std::vector<bench::ShardResult> shards;
  try {
    while (shards.size() < 4) {
      const auto end = text.find(k_separator);
      const std::string label = "shard-" + std::to_string(shards.size()) + ".json";
      shards.push_back(
          {label, bench::parse_result_json(parse_json(text.substr(0, end), label), label)});
      if (end == std::string_view::npos)
        break;
      text.remove_prefix(end + k_separator.size());
    }
    const auto merged =
        bench::merge_shards(shards, {.allow_partial = size > 0 && data[0] % 2 == 1});
    (void)json_text(bench::result_json(merged.report));
  } catch (const Error&) {
  }
  return 0;
}
