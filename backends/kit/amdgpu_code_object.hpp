#pragma once
// Reads an AMDGPU code object (the ELF that hipRTC and hipcc produce for one gfx target, or a clang
// offload bundle around it): its target and, from the NT_AMDGPU_METADATA note (MessagePack, code
// object v3 and later), every kernel's resources and argument layout. Needs no GPU and no ROCm:
// `gpurun compile --resources` reports a gfx90a kernel on any machine, and the HIP backend takes
// its kernels' parameter layout from here.
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurun::kit {

/// One kernel argument as the metadata lays it out (explicit and hidden ones).
struct AmdgpuKernelArg {
  std::string name;       ///< .name (absent for hidden arguments)
  std::string type_name;  ///< .type_name, where the compiler records it
  std::string value_kind; ///< "global_buffer", "by_value", "hidden_global_offset_x", …
  std::size_t offset = 0;
  std::size_t size = 0;
  [[nodiscard]] bool hidden() const { return value_kind.starts_with("hidden_"); }
};

/// One kernel of a code object.
struct AmdgpuKernel {
  std::string name;   ///< .name: the (lowered) kernel name
  std::string symbol; ///< .symbol: its kernel descriptor, "name.kd"
  int vgprs = -1;     ///< .vgpr_count
  int sgprs = -1;     ///< .sgpr_count
  int agprs = -1;     ///< .agpr_count (CDNA's accumulation registers; -1 where absent)
  int vgpr_spills = 0;
  int sgpr_spills = 0;
  std::size_t lds_bytes = 0;     ///< .group_segment_fixed_size: static LDS (shared memory)
  std::size_t scratch_bytes = 0; ///< .private_segment_fixed_size: per work-item scratch
  std::size_t kernarg_bytes = 0; ///< .kernarg_segment_size, hidden arguments included
  int max_flat_workgroup_size = 0;
  int wavefront_size = 0;     ///< 64 (CDNA, GCN) or 32 (RDNA in wave32)
  bool dynamic_stack = false; ///< .uses_dynamic_stack: scratch beyond scratch_bytes
  std::vector<AmdgpuKernelArg> args;
};

/// What a code object holds.
struct AmdgpuCodeObject {
  std::string target; ///< "amdgcn-amd-amdhsa--gfx90a:xnack-" (amdhsa.target)
  std::vector<AmdgpuKernel> kernels;
  /// "gfx90a" from the target: the processor without triple and feature flags.
  [[nodiscard]] std::string processor() const;
};

/// A malformed or unsupported code object; the message says which part.
class CodeObjectError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// True when `bytes` start like an ELF file or a clang offload bundle.
[[nodiscard]] bool looks_like_code_object(std::span<const std::byte> bytes);

/// Parses a code object (or the first amdgcn entry of an offload bundle). Every offset and size is
/// checked against the input; throws CodeObjectError naming what is wrong.
[[nodiscard]] AmdgpuCodeObject read_amdgpu_code_object(std::span<const std::byte> bytes);

/// "gfx90a" from "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "gfx90a:xnack-" or "gfx90a".
[[nodiscard]] std::string amdgpu_processor(const std::string& target);

} // namespace gpurun::kit
