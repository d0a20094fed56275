#pragma once
// Theoretical occupancy of a CUDA kernel on an NVIDIA architecture, without a GPU: how many
// blocks of a given size fit on one SM at once, what limits them and by how much. The rules are
// those of NVIDIA's occupancy calculator (what cuOccupancyMaxActiveBlocksPerMultiprocessor
// computes) for Volta and later with the default shared-memory carveout; the inputs are the
// kernel's resources as ptxas reports them (registers, static shared memory, named barriers).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::arch {

/// What an architecture offers one SM and one block (the device attributes the calculator uses).
struct SmLimits {
  int compute_major = 0;
  int compute_minor = 0;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 65536;
  int registers_per_block = 65536;
  int max_registers_per_thread = 255;
  int register_unit = 256;  ///< registers are allocated per warp in multiples of this
  int sub_partitions = 4;   ///< a block's warps are spread over the SM's partitions
  std::size_t shared_per_sm = 0;          ///< the largest carveout (the default)
  std::size_t shared_per_block = 48 * 1024; ///< without opting in (cudaFuncSetAttribute)
  std::size_t shared_per_block_optin = 0;
  std::size_t reserved_shared_per_block = 0; ///< the driver's part of each block's shared memory
  std::size_t shared_unit = 128;             ///< shared memory is allocated in multiples of this
  int barriers_per_block_slot = 2; ///< named-barrier sets per resident block slot (sm_90+)
};

/// The limits of "sm_90", "sm_90a", "compute_86"…; nullopt for an architecture not in the table.
[[nodiscard]] std::optional<SmLimits> sm_limits(std::string_view arch);
/// The architectures sm_limits knows, for error messages ("sm_70, sm_75, …").
[[nodiscard]] std::string known_occupancy_archs();

/// A kernel's per-launch resources.
struct KernelUse {
  int registers = 0; ///< per thread
  std::size_t static_shared = 0;
  std::size_t dynamic_shared = 0;
  int barriers = 0; ///< named barriers the kernel uses (ptxas "bar"), 0 or 1 for plain __syncthreads
};

/// One resource's limit on the blocks per SM.
struct OccupancyLimit {
  std::string resource; ///< "warps", "registers", "shared memory", "blocks", "barriers"
  int blocks = 0;       ///< blocks per SM this resource alone allows (a large number: no limit)
  /// What would let one more block fit, where a change of the kernel can: "61 registers per
  /// thread or fewer", "25088 bytes of shared memory per block or fewer"; empty otherwise.
  std::string next_step;
};

struct Occupancy {
  std::string kernel; ///< filled in by the caller
  std::string arch;
  int block_size = 0;
  std::size_t dynamic_shared = 0;
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0; ///< active warps / max warps, 0..1
  std::vector<OccupancyLimit> limits; ///< every resource, in a fixed order
  std::vector<std::string> limited_by; ///< the resources whose limit is the result
  std::size_t shared_per_block = 0;    ///< as allocated: static + dynamic + reserved, rounded
  int registers_per_block = 0;         ///< as allocated: per warp rounded up, × warps
  /// Why no block fits, when none does ("1025 threads per block: at most 1024").
  std::string cannot_launch;
  /// The block sizes (multiples of 32) that reach the highest occupancy this kernel can have.
  std::vector<int> best_block_sizes;
  double best_occupancy = 0;
};

/// The occupancy of `use` in blocks of `block_size` threads on `limits`.
[[nodiscard]] Occupancy occupancy(const SmLimits& limits, std::string_view arch,
                                  const KernelUse& use, int block_size);

} // namespace gpurun::arch
