#pragma once
// Which stand-in answers a lookup by name: cuGetProcAddress names an entry point without its
// version suffix and says which ABI it wants; dlsym names it as libcuda exports it.
#include <cstdint>
#include <string_view>

namespace gpurun::capture::preload {

/// The stand-in for a driver entry point `symbol` as cuGetProcAddress names it (no version
/// suffix), for the ABI that `cuda_version` and `flags` select; nullptr when it is not stood in
/// for (or the caller asks for an older ABI than the stand-in's).
[[nodiscard]] void* stand_in(std::string_view symbol, int cuda_version, std::uint64_t flags);

/// The stand-in exported under `symbol` (the driver's exported name: "cuMemAlloc_v2"); nullptr
/// when there is none.
[[nodiscard]] void* exported_stand_in(std::string_view symbol);

} // namespace gpurun::capture::preload
