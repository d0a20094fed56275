// Shard results as merge reads them (base/json_read, bench/merge): up to four JSON documents,
// separated by a line "---", each a shard's result → one merged report.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "bench/merge.hpp"
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
      shards.push_back({label, parse_json<nlohmann::ordered_json>(text.substr(0, end), label)});
      if (end == std::string_view::npos)
        break;
      text.remove_prefix(end + k_separator.size());
    }
    (void)bench::merge_shards(shards, {.allow_partial = size > 0 && data[0] % 2 == 1});
  } catch (const Error&) {
  }
  return 0;
}
