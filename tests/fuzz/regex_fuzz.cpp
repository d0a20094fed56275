// bench --filter's matcher (base/regex): the pattern is the input's first line, the case name
// the rest. Compiled, and searched in the name when it compiles; a usage error is the only
// accepted failure, and no input may take longer than the name's length times the automaton's
// size.
#include <cstddef>
#include <cstdint>

#include "base/error.hpp"
#include "base/regex.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = gpurun::fuzz::as_text(data, size);
  const std::size_t line = input.find('\n');
  const std::string_view pattern = input.substr(0, line);
  const std::string_view name =
      line == std::string_view::npos ? std::string_view() : input.substr(line + 1);
  try {
    (void)gpurun::Regex::compile(pattern, "--filter").search(name);
  } catch (const gpurun::Error&) {
  }
  return 0;
}
