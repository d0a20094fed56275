#pragma once
// The thread-index table of `gpurun threads`: which thread gets which indices and how threads fall
// into warps, computed from grid, block and warp size alone; and the warp summary. Printed by
// output/thread_rows and output/thread_report.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/dims.hpp"

namespace gpurun {

/// The arithmetic columns, in output order (CSV header and JSON keys).
inline constexpr std::array<std::string_view, 12> thread_columns = {
    "block_x",  "block_y",  "block_z",  "thread_x", "thread_y", "thread_z",
    "global_x", "global_y", "global_z", "linear",   "warp",     "lane"};

/// Positions of the arithmetic columns in a row.
enum ThreadColumn : std::size_t {
  col_block_x,
  col_block_y,
  col_block_z,
  col_thread_x,
  col_thread_y,
  col_thread_z,
  col_global_x,
  col_global_y,
  col_global_z,
  col_linear,
  col_warp,
  col_lane,
};

/// Most columns any table has (the captured table adds four to the arithmetic twelve).
inline constexpr std::size_t max_row_columns = 16;

/// One row's values in the order of its table's columns.
using RowValues = std::array<std::uint64_t, max_row_columns>;

/// A launch shape and warp size: maps a thread's position in launch order (blocks in linear order,
/// x fastest; threads in a block in linear order, x fastest) to its indices.
class ThreadLayout {
public:
  /// Throws usage Error when `warp_size` is 0.
  ThreadLayout(Dim3 grid, Dim3 block, unsigned warp_size);

  [[nodiscard]] const Dim3& grid() const { return m_grid; }
  [[nodiscard]] const Dim3& block() const { return m_block; }
  [[nodiscard]] unsigned warp_size() const { return m_warp_size; }
  [[nodiscard]] std::uint64_t threads_per_block() const { return m_block.volume(); }
  [[nodiscard]] std::uint64_t total_threads() const { return m_grid.volume() * m_block.volume(); }

  /// The arithmetic row of the thread at `index` (< total_threads()).
  [[nodiscard]] RowValues row(std::uint64_t index) const;
  /// The row of a thread given its block and thread index (what a kernel sees).
  [[nodiscard]] RowValues row_of(const Dim3& block_idx, const Dim3& thread_idx) const;

private:
  Dim3 m_grid;
  Dim3 m_block;
  unsigned m_warp_size;
};

/// How a block's threads fill warps; the partial warp is the last one when the block size is not a
/// multiple of the warp size.
struct WarpSummary {
  Dim3 grid;
  Dim3 block;
  unsigned warp_size = 32;
  std::uint64_t blocks = 0;
  std::uint64_t threads_per_block = 0;
  std::uint64_t total_threads = 0;
  std::uint64_t warps_per_block = 0;
  std::uint64_t full_warps_per_block = 0;
  std::uint64_t partial_warps_per_block = 0;   ///< 0 or 1
  std::uint64_t partial_warp_active_lanes = 0; ///< 0 when there is no partial warp
  std::uint64_t idle_lanes_per_block = 0;
  double idle_lane_share = 0; ///< idle lanes / (warps per block × warp size)
  std::uint64_t total_warps = 0;
  std::uint64_t total_idle_lanes = 0;
};

[[nodiscard]] WarpSummary summarize(const ThreadLayout& layout);

/// Rows by position; the arithmetic table and the captured table of `--run` are both this.
class ThreadTable {
public:
  virtual ~ThreadTable() = default;
  /// Column names; the first twelve are always thread_columns.
  [[nodiscard]] virtual const std::vector<std::string>& columns() const = 0;
  [[nodiscard]] virtual std::uint64_t size() const = 0;
  [[nodiscard]] virtual RowValues row(std::uint64_t index) const = 0;
};

/// The table computed from a layout; rows are generated on demand, so any launch size works.
class ArithmeticTable : public ThreadTable {
public:
  explicit ArithmeticTable(ThreadLayout layout);
  [[nodiscard]] const std::vector<std::string>& columns() const override { return m_columns; }
  [[nodiscard]] std::uint64_t size() const override { return m_layout.total_threads(); }
  [[nodiscard]] RowValues row(std::uint64_t index) const override { return m_layout.row(index); }

private:
  ThreadLayout m_layout;
  std::vector<std::string> m_columns;
};

} // namespace gpurun
