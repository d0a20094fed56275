// Tuning caches as `gpurun tune --cache` and `--simulate` read them (tune/cache): gpurun's JSON
// Lines cache or Kernel Tuner's cache file → the space of its configurations, every one named,
// described and found again by its key; a space small enough to enumerate is also rebuilt from
// the header's parameters and restrictions, as a search with that cache does.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/error.hpp"
#include "tune/cache.hpp"
#include "tune/space.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

// read_cache reads a file: each input is written to this process's own one.
const std::filesystem::path& input_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("gpurun-tune-cache-fuzz-" + std::to_string(::getpid()) + ".cache");
  return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  {
    std::ofstream out(input_file(), std::ios::binary | std::ios::trunc);
    out << fuzz::as_text(data, size);
  }
  try {
    const tune::Cache cache = tune::read_cache(input_file(), "--cache fuzz.cache");
    const tune::Space space = tune::Space::of(cache.header.params, cache.configs);
    for (std::size_t i = 0; i < space.size() && i < 64; ++i) {
      const std::string key = space.key(i);
      if (space.find_key(key) != i)
        __builtin_trap(); // a configuration's key must find it again
      (void)space.describe(i);
      (void)space.point(i);
    }
    std::size_t product = 1;
    for (const auto& p : cache.header.params)
      product = p.values.empty() || product > 4096 ? product : product * p.values.size();
    if (product <= 4096 && cache.header.params.size() <= 8)
      (void)tune::Space(cache.header.params, cache.header.restrictions, "fuzz params",
                        "fuzz restrictions");
  } catch (const Error&) {
  }
  return 0;
}
