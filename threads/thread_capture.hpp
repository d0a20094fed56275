#pragma once
// `gpurun threads --run`: launches the capture kernel (kernels/internal/threads_capture.cu,
// embedded) on a device, reads back what every thread saw, checks it against the arithmetic
// table and summarizes where the blocks ran.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "pipeline/target.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

/// The host copy of the kernel's ThreadRecord (same layout: 56 bytes).
struct CapturedThread {
  std::array<std::uint32_t, 3> block;
  std::array<std::uint32_t, 3> thread;
  std::uint32_t warpid;
  std::uint32_t laneid;
  std::uint32_t smid;
  std::uint32_t arrival;
  std::uint64_t globaltimer;
  std::uint64_t clock;
};
static_assert(sizeof(CapturedThread) == 56, "must match ThreadRecord in threads_capture.cu");

/// The capture buffer holds one record per thread; beyond this many threads it would need more
/// than 900 MiB and the CPU backend minutes, so --run refuses.
inline constexpr std::uint64_t max_captured_threads = std::uint64_t{1} << 24;

/// The entry point of the capture kernel.
inline constexpr std::string_view threads_capture_kernel = "threads_capture";

/// The text of kernels/internal/threads_capture.cu as built into the binary.
[[nodiscard]] std::string_view threads_capture_source();
/// Its OpenCL C twin, kernels/internal/threads_capture.cl (the opencl backend's --run).
[[nodiscard]] std::string_view threads_capture_opencl_source();

/// What the capture kernel wrote: one record per thread in launch order (ThreadLayout::row).
struct Capture {
  ThreadLayout layout;
  std::vector<CapturedThread> threads;
  std::uint64_t arrivals = 0; ///< the arrival counter after the launch
};

/// Runs the capture kernel through the run pipeline with the layout's grid and block on
/// `target`. Records of threads that never ran stay all ones. Throws usage Error beyond
/// max_captured_threads or the device's limits, Error(compile) when the kernel does not compile,
/// and whatever the backend throws for launch or device errors.
[[nodiscard]] Capture capture_threads(const Target& target, const ThreadLayout& layout,
                                      std::optional<double> timeout_s = std::nullopt);

/// One thread whose record differs from its arithmetic row.
struct CaptureMismatch {
  std::uint64_t index = 0;
  RowValues expected{};
  std::optional<RowValues> captured; ///< empty when the thread wrote nothing
};

/// Block and thread indices and lanes compared with the arithmetic table. %warpid is not
/// compared: hardware may number a block's warps differently from linear / warp size.
struct CaptureCheck {
  std::uint64_t compared = 0;
  std::uint64_t differing = 0;
  std::vector<CaptureMismatch> first; ///< the first differences, in launch order
  std::uint64_t arrivals = 0;
  [[nodiscard]] bool ok() const { return differing == 0 && arrivals == compared; }
};

[[nodiscard]] CaptureCheck check_capture(const Capture& capture, std::size_t max_reported = 5);

/// Where the blocks ran, by the %smid of each block's first thread.
struct Placement {
  std::map<std::uint32_t, std::uint64_t> blocks_per_sm;
  /// Blocks whose threads reported more than one SM (never on hardware: a block stays on one SM).
  std::uint64_t split_blocks = 0;
};

[[nodiscard]] Placement placement_of(const Capture& capture);

enum class CaptureOrder { sorted, capture };

/// The captured table's columns: thread_columns, then hw_warp, sm, arrival, timestamp.
[[nodiscard]] std::vector<std::string> captured_columns();

/// "sorted" or "capture"; throws usage Error naming --order otherwise.
[[nodiscard]] CaptureOrder parse_capture_order(std::string_view text);

/// The captured rows: the arithmetic columns computed from the captured block and thread
/// indices, except `lane`, which is the captured %laneid; then hw_warp (%warpid), sm (%smid),
/// arrival (the atomic counter) and timestamp (%globaltimer in ns since the earliest thread, or
/// %clock64 cycles when the global timer reads 0).
class CapturedTable : public ThreadTable {
public:
  CapturedTable(const Capture& capture, CaptureOrder order);
  [[nodiscard]] const std::vector<std::string>& columns() const override { return m_columns; }
  [[nodiscard]] std::uint64_t size() const override { return m_capture.threads.size(); }
  [[nodiscard]] RowValues row(std::uint64_t index) const override;
  /// "globaltimer_ns" or "clock64_cycles".
  [[nodiscard]] const std::string& timestamp_unit() const { return m_timestamp_unit; }

private:
  const Capture& m_capture;
  std::vector<std::string> m_columns;
  std::vector<std::uint32_t> m_order; ///< slot of each row when not sorted
  bool m_use_clock = false;
  std::uint64_t m_time_base = 0;
  std::string m_timestamp_unit;
};

/// The captured row of one record (as CapturedTable shows it, without the timestamp base).
[[nodiscard]] RowValues captured_row(const ThreadLayout& layout, const CapturedThread& record);

} // namespace gpurun
