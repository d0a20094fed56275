// Bench results as compare and --balance-from read them (base/json_read, bench/result_file,
// bench/compare, bench/result_json, bench/shard): JSON text → ResultFile (gpurun, Google
// Benchmark or nvbench) → compared with itself; or → a bench report, written again, and the case
// timings that balance shards. The first byte chooses.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "base/json_text.hpp"
#include "bench/compare.hpp"
#include "bench/result_file.hpp"
#include "bench/result_json.hpp"
#include "bench/shard.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const auto [choice, text] = fuzz::select(data, size, 2);
  try {
    const nlohmann::json doc = parse_json(text, "fuzz.json");
    if (choice == 0) {
      // nvbench's sample files are looked for beside the document: in a folder that is not there.
      const bench::ResultFile file =
          bench::parse_result_document(doc, "fuzz.json", "/nonexistent-fuzz");
      (void)bench::compare_results(file, file, {});
    } else {
      // Read back as bench's own result, written again (merge does), and the timings of a shard's
      // balance.
      const bench::BenchReport report = bench::parse_result_json(doc, "--balance-from fuzz.json");
      (void)json_text(bench::result_json(report));
      (void)bench::case_timings(report);
    }
  } catch (const Error&) {
  }
  return 0;
}
