// CUDA module images (backends/kit/module_image), whose error type is ImageError: what a program
// hands the driver or a user names as a kernel file — PTX, a cubin, a fatbin with compressed
// entries. A size found is never past the input, and every entry's payload lies inside it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "backends/kit/module_image.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)kit::image_kind(bytes);
  try {
    if (kit::image_size(bytes) > size)
      std::abort();
  } catch (const kit::ImageError&) {
  }
  try {
    for (const kit::FatbinEntry& e : kit::fatbin_entries(bytes)) {
      if (e.stored.data() < bytes.data() || e.stored.data() + e.stored.size() > bytes.data() + size)
        std::abort();
      try {
        (void)kit::fatbin_payload(e);
      } catch (const kit::ImageError&) {
      }
    }
    (void)kit::fatbin_ptx(bytes, 90);
  } catch (const kit::ImageError&) {
  }
  return 0;
}
