// The JSON run spec (pipeline/spec): JSON text → RunRequest, as `gpurun run spec.json` reads it.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "pipeline/spec.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  try {
    const nlohmann::json doc = parse_json(fuzz::as_text(data, size), "fuzz.json");
    (void)spec_from_json(doc, "fuzz.json", "/fuzz");
  } catch (const Error&) {
  }
  return 0;
}
