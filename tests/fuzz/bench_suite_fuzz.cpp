// Benchmark suites (bench/suite): JSON text → Suite → every case at every point of its axes, as
// `gpurun bench suite.json` reads and expands it.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "bench/suite.hpp"
#include "pipeline/spec.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  try {
    const nlohmann::json doc = parse_json(fuzz::as_text(data, size), "fuzz.json");
    const bench::Suite suite = bench::suite_from_json(doc, "fuzz.json", "/fuzz", "fuzz");
    (void)bench::expand(suite, {});
  } catch (const Error&) {
  }
  return 0;
}
