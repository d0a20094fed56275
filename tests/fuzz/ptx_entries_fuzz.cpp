// The PTX `.entry` reader (backends/kit/ptx_entries), whose error type is PtxSyntaxError. A layout
// it returns must fit together: backends copy arguments to these offsets.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "backends/kit/ptx_entries.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const std::string_view ptx = fuzz::as_text(data, size);
  try {
    for (const kit::PtxEntry& entry : kit::parse_ptx_entries(ptx)) {
      std::size_t end = 0;
      for (const kit::PtxParam& p : entry.params) {
        if (p.offset < end || (p.align > 1 && p.offset % p.align != 0) ||
            p.offset + p.size < p.offset)
          std::abort();
        end = p.offset + p.size;
      }
      if (end != entry.param_bytes)
        std::abort();
    }
  } catch (const kit::PtxSyntaxError&) {
  }
  try {
    (void)kit::parse_ptx_param_list(ptx);
  } catch (const kit::PtxSyntaxError&) {
  }
  return 0;
}
