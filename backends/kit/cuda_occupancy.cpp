#include "backends/kit/cuda_occupancy.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include <fmt/format.h>

#include "backends/kit/cuda_arch.hpp"

namespace gpurun::arch {

namespace {

struct ArchRow {
  int number; ///< 90 for sm_90
  int max_threads_per_sm;
  int max_blocks_per_sm;
  std::size_t shared_per_sm;
  std::size_t shared_per_block_optin;
  int barrier_sets; ///< named-barrier sets per block slot
};

constexpr std::size_t kKiB = 1024;

// The CUDA Programming Guide's table of compute capabilities (threads, blocks and shared memory
// per SM, the opt-in maximum per block).
constexpr std::array<ArchRow, 12> kArchs{{
    {70, 2048, 32, 96 * kKiB, 96 * kKiB, 2},
    {72, 2048, 32, 96 * kKiB, 96 * kKiB, 2},
    {75, 1024, 16, 64 * kKiB, 64 * kKiB, 2},
    {80, 2048, 32, 164 * kKiB, 163 * kKiB, 2},
    {86, 1536, 16, 100 * kKiB, 99 * kKiB, 1},
    {87, 1536, 16, 164 * kKiB, 163 * kKiB, 1},
    {89, 1536, 24, 100 * kKiB, 99 * kKiB, 1},
    {90, 2048, 32, 228 * kKiB, 227 * kKiB, 2},
    {100, 2048, 32, 228 * kKiB, 227 * kKiB, 2},
    {103, 2048, 32, 228 * kKiB, 227 * kKiB, 2},
    {120, 1536, 24, 100 * kKiB, 99 * kKiB, 1},
    {121, 1536, 24, 100 * kKiB, 99 * kKiB, 1},
}};

int divide_round_up(int x, int y) { return (x + y - 1) / y; }
int round_up(int x, int y) { return y * divide_round_up(x, y); }

/// Blocks per SM each resource allows, and what the calculator allocates per block.
struct Limits {
  int warps = 0;
  int registers = 0;
  int shared = 0;
  int blocks = 0;
  int barriers = INT_MAX;
  std::size_t shared_allocated = 0;
  int registers_allocated = 0;
  std::string cannot_launch;
};

Limits limits_of(const SmLimits& sm, const KernelUse& use, int block_size) {
  Limits l;
  const int warps_per_block = divide_round_up(block_size, 32);
  const int max_warps = sm.max_threads_per_sm / 32;
  l.warps = block_size > sm.max_threads_per_block ? 0 : max_warps / warps_per_block;
  if (block_size > sm.max_threads_per_block)
    l.cannot_launch =
        fmt::format("{} threads per block: at most {}", block_size, sm.max_threads_per_block);

  // Registers: per warp in allocation units; the hardware places a block's warps on all
  // sub-partitions, so it checks the block as if its warps were a multiple of their count.
  const int per_warp = round_up(use.registers * 32, sm.register_unit);
  l.registers_allocated = per_warp * warps_per_block;
  const int assumed = per_warp * round_up(warps_per_block, sm.sub_partitions);
  if (use.registers > sm.max_registers_per_thread || assumed > sm.registers_per_block ||
      l.registers_allocated > sm.registers_per_block) {
    l.registers = 0;
    if (l.cannot_launch.empty())
      l.cannot_launch = fmt::format("{} registers per thread × {} threads: more than the {} "
                                    "registers a block may have",
                                    use.registers, block_size, sm.registers_per_block);
  } else if (per_warp == 0) {
    l.registers = INT_MAX;
  } else {
    const int warps_per_partition = sm.registers_per_sm / sm.sub_partitions / per_warp;
    l.registers = warps_per_partition * sm.sub_partitions / warps_per_block;
  }

  // Shared memory: the kernel's, the launch's dynamic part and the driver's reserve, rounded up
  // to the allocation unit; the default carveout gives the SM its largest configuration.
  const std::size_t total = use.static_shared + use.dynamic_shared + sm.reserved_shared_per_block;
  l.shared_allocated = (total + sm.shared_unit - 1) / sm.shared_unit * sm.shared_unit;
  const std::size_t per_block_limit =
      (use.static_shared + use.dynamic_shared > sm.shared_per_block ? sm.shared_per_block_optin
                                                                     : sm.shared_per_block) +
      sm.reserved_shared_per_block;
  if (l.shared_allocated > per_block_limit) {
    l.shared = 0;
    if (l.cannot_launch.empty())
      l.cannot_launch = fmt::format(
          "{} bytes of shared memory per block: at most {} ({} without opting in)",
          use.static_shared + use.dynamic_shared, sm.shared_per_block_optin, sm.shared_per_block);
  } else {
    l.shared = l.shared_allocated == 0 ? INT_MAX
                                       : static_cast<int>(sm.shared_per_sm / l.shared_allocated);
  }

  l.blocks = sm.max_blocks_per_sm;
  if (sm.compute_major >= 9 && use.barriers > 0)
    l.barriers = sm.max_blocks_per_sm * sm.barriers_per_block_slot / use.barriers;
  return l;
}

int active_blocks(const Limits& l) {
  return std::min({l.warps, l.registers, l.shared, l.blocks, l.barriers});
}

/// The most registers per thread with which one more block than `now` fits; nullopt if none.
std::optional<int> registers_for_one_more(const SmLimits& sm, KernelUse use, int block_size,
                                          int now) {
  for (int r = use.registers - 1; r >= 1; --r) {
    use.registers = r;
    if (limits_of(sm, use, block_size).registers > now)
      return r;
  }
  return std::nullopt;
}

} // namespace

std::optional<SmLimits> sm_limits(std::string_view name) {
  const auto parsed = parse_cuda_arch(name);
  if (!parsed)
    return std::nullopt;
  for (const auto& row : kArchs) {
    if (row.number != parsed->number)
      continue;
    SmLimits sm;
    sm.compute_major = row.number / 10;
    sm.compute_minor = row.number % 10;
    sm.max_threads_per_sm = row.max_threads_per_sm;
    sm.max_blocks_per_sm = row.max_blocks_per_sm;
    sm.max_registers_per_thread = 256; // what the calculator checks from Volta on
    sm.shared_per_sm = row.shared_per_sm;
    sm.shared_per_block_optin = row.shared_per_block_optin;
    sm.reserved_shared_per_block = sm.compute_major >= 8 ? kKiB : 0;
    sm.shared_unit = sm.compute_major >= 8 ? 128 : 256;
    sm.barriers_per_block_slot = row.barrier_sets;
    return sm;
  }
  return std::nullopt;
}

std::string known_occupancy_archs() {
  std::string out;
  for (const auto& row : kArchs)
    out += (out.empty() ? "" : ", ") + fmt::format("sm_{}", row.number);
  return out;
}

Occupancy occupancy(const SmLimits& sm, std::string_view arch, const KernelUse& use,
                    int block_size) {
  Occupancy o;
  o.arch = std::string(arch);
  o.block_size = block_size;
  o.dynamic_shared = use.dynamic_shared;
  o.max_warps_per_sm = sm.max_threads_per_sm / 32;
  const Limits l = limits_of(sm, use, block_size);
  const int n = active_blocks(l);
  const int warps_per_block = divide_round_up(block_size, 32);
  o.active_blocks_per_sm = n;
  o.active_warps_per_sm = n * warps_per_block;
  o.occupancy = static_cast<double>(o.active_warps_per_sm) / o.max_warps_per_sm;
  o.shared_per_block = l.shared_allocated;
  o.registers_per_block = l.registers_allocated;
  o.cannot_launch = l.cannot_launch;

  const int max_warps = o.max_warps_per_sm;
  auto warps_step = [&]() -> std::string {
    const int fits = max_warps / (n + 1);
    if (n == 0 || fits == 0)
      return {};
    return fmt::format("{} threads per block or fewer", fits * 32);
  };
  auto registers_step = [&]() -> std::string {
    if (n == 0 || l.registers == INT_MAX)
      return {};
    const auto r = registers_for_one_more(sm, use, block_size, l.registers);
    return r ? fmt::format("{} registers per thread or fewer", *r) : std::string{};
  };
  auto shared_step = [&]() -> std::string {
    if (n == 0 || l.shared == INT_MAX)
      return {};
    const std::size_t allocated = sm.shared_per_sm / static_cast<std::size_t>(l.shared + 1) /
                                  sm.shared_unit * sm.shared_unit;
    if (allocated <= sm.reserved_shared_per_block)
      return {};
    return fmt::format("{} bytes of shared memory per block or fewer",
                       allocated - sm.reserved_shared_per_block);
  };
  o.limits = {{"warps", l.warps, l.warps == n ? warps_step() : std::string{}},
              {"registers", l.registers, l.registers == n ? registers_step() : std::string{}},
              {"shared memory", l.shared, l.shared == n ? shared_step() : std::string{}},
              {"blocks", l.blocks, {}}};
  if (l.barriers != INT_MAX)
    o.limits.push_back({"barriers", l.barriers, {}});
  for (const auto& limit : o.limits)
    if (limit.blocks == n)
      o.limited_by.push_back(limit.resource);

  for (int size = 32; size <= sm.max_threads_per_block; size += 32) {
    const int warps = active_blocks(limits_of(sm, use, size)) * (size / 32);
    const double value = static_cast<double>(warps) / max_warps;
    if (value > o.best_occupancy + 1e-12) {
      o.best_occupancy = value;
      o.best_block_sizes.clear();
    }
    if (value > 0 && value >= o.best_occupancy - 1e-12)
      o.best_block_sizes.push_back(size);
  }
  return o;
}

} // namespace gpurun::arch
