// The .npy reader (base/npy): bytes → HostBuffer. What it accepts must survive a round trip
// through the writer unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "base/error.hpp"
#include "base/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const auto file = std::as_bytes(std::span(data, size));
  HostBuffer buffer;
  try {
    buffer = parse_npy(file, "fuzz.npy");
  } catch (const Error&) {
    return 0;
  }
  const HostBuffer again = parse_npy(encode_npy(buffer), "encoded.npy");
  if (again.dtype() != buffer.dtype() || again.shape() != buffer.shape() ||
      !std::equal(again.bytes().begin(), again.bytes().end(), buffer.bytes().begin(),
                  buffer.bytes().end()))
    std::abort();
  return 0;
}
