// The AMD code object reader (backends/kit/amdgpu_code_object), whose error type is
// CodeObjectError: an ELF or offload bundle from hipRTC or the compile cache. Every kernel it
// returns has a name (the HIP backend looks kernels up by it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "backends/kit/amdgpu_code_object.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  (void)kit::looks_like_code_object(bytes);
  try {
    const kit::AmdgpuCodeObject code = kit::read_amdgpu_code_object(bytes);
    (void)code.processor();
    for (const kit::AmdgpuKernel& k : code.kernels)
      if (k.name.empty())
        std::abort();
  } catch (const kit::CodeObjectError&) {
  }
  return 0;
}
