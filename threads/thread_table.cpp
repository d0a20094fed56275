#include "threads/thread_table.hpp"

#include "base/error.hpp"

namespace gpurun {

ThreadLayout::ThreadLayout(Dim3 grid, Dim3 block, unsigned warp_size)
    : m_grid(grid), m_block(block), m_warp_size(warp_size) {
  if (warp_size == 0)
    throw usage_error("--warp-size: must be at least 1");
  if (grid.volume() == 0)
    throw usage_error("--grid: every dimension must be at least 1");
  if (block.volume() == 0)
    throw usage_error("--block: every dimension must be at least 1");
}

RowValues ThreadLayout::row(std::uint64_t index) const {
  const std::uint64_t tpb = threads_per_block();
  const std::uint64_t block_linear = index / tpb;
  const std::uint64_t linear = index % tpb;
  const Dim3 b{static_cast<std::uint32_t>(block_linear % m_grid.x),
               static_cast<std::uint32_t>(block_linear / m_grid.x % m_grid.y),
               static_cast<std::uint32_t>(block_linear / (std::uint64_t{m_grid.x} * m_grid.y))};
  const Dim3 t{static_cast<std::uint32_t>(linear % m_block.x),
               static_cast<std::uint32_t>(linear / m_block.x % m_block.y),
               static_cast<std::uint32_t>(linear / (std::uint64_t{m_block.x} * m_block.y))};
  return row_of(b, t);
}

RowValues ThreadLayout::row_of(const Dim3& b, const Dim3& t) const {
  const std::uint64_t linear =
      t.x + std::uint64_t{m_block.x} * (t.y + std::uint64_t{m_block.y} * t.z);
  RowValues r{};
  r[col_block_x] = b.x;
  r[col_block_y] = b.y;
  r[col_block_z] = b.z;
  r[col_thread_x] = t.x;
  r[col_thread_y] = t.y;
  r[col_thread_z] = t.z;
  r[col_global_x] = std::uint64_t{b.x} * m_block.x + t.x;
  r[col_global_y] = std::uint64_t{b.y} * m_block.y + t.y;
  r[col_global_z] = std::uint64_t{b.z} * m_block.z + t.z;
  r[col_linear] = linear;
  r[col_warp] = linear / m_warp_size;
  r[col_lane] = linear % m_warp_size;
  return r;
}

WarpSummary summarize(const ThreadLayout& layout) {
  WarpSummary s;
  s.grid = layout.grid();
  s.block = layout.block();
  s.warp_size = layout.warp_size();
  s.blocks = layout.grid().volume();
  s.threads_per_block = layout.threads_per_block();
  s.total_threads = layout.total_threads();
  s.full_warps_per_block = s.threads_per_block / s.warp_size;
  s.partial_warp_active_lanes = s.threads_per_block % s.warp_size;
  s.partial_warps_per_block = s.partial_warp_active_lanes != 0 ? 1 : 0;
  s.warps_per_block = s.full_warps_per_block + s.partial_warps_per_block;
  s.idle_lanes_per_block =
      s.partial_warps_per_block != 0 ? s.warp_size - s.partial_warp_active_lanes : 0;
  s.idle_lane_share = static_cast<double>(s.idle_lanes_per_block) /
                      static_cast<double>(s.warps_per_block * s.warp_size);
  s.total_warps = s.warps_per_block * s.blocks;
  s.total_idle_lanes = s.idle_lanes_per_block * s.blocks;
  return s;
}
ArithmeticTable::ArithmeticTable(ThreadLayout layout)
    : m_layout(layout), m_columns(thread_columns.begin(), thread_columns.end()) {}

} // namespace gpurun
