#pragma once
// NVIDIA architecture names, in one place: "sm_90" names a GPU's binary (cubin), "compute_90" the
// PTX of that architecture; both may carry a feature suffix ("sm_90a", "sm_100f").
#include <optional>
#include <string>
#include <string_view>

namespace gpurun::arch {

struct CudaArch {
  int number = 0;   ///< 90 for sm_90: major × 10 + minor
  char suffix = 0;  ///< 'a', 'f' or 0
  bool real = true; ///< sm_ (binary) rather than compute_ (PTX)
};

/// "sm_90", "sm_90a", "compute_86", "compute_100f"; nullopt for anything else.
[[nodiscard]] std::optional<CudaArch> parse_cuda_arch(std::string_view text);

/// The name of an architecture: "sm_90a", "compute_86".
[[nodiscard]] std::string to_string(const CudaArch& arch);

/// "sm_90" of compute capability 9.0.
[[nodiscard]] std::string real_arch(int major, int minor);
/// "compute_90" of compute capability 9.0.
[[nodiscard]] std::string virtual_arch(int major, int minor);

/// sm_XX → compute_XX (the PTX of the same architecture); any other text unchanged.
[[nodiscard]] std::string virtual_arch(std::string_view arch);
/// compute_XX → sm_XX (the binary of the same architecture); any other text unchanged.
[[nodiscard]] std::string real_arch(std::string_view arch);

} // namespace gpurun::arch
