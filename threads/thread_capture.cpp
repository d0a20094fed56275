#include "threads/thread_capture.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>

#include <fmt/format.h>

#include "base/error.hpp"
#include "pipeline/collect.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/prepare.hpp"

namespace gpurun {

namespace {

constexpr std::uint32_t unwritten_word = 0xffffffffu;

// The buffer is filled with ones before the launch; a record still all ones was never written.
bool unwritten(const CapturedThread& r) {
  return r.block[0] == unwritten_word && r.thread[0] == unwritten_word &&
         r.arrival == unwritten_word && r.globaltimer == ~std::uint64_t{0};
}

} // namespace

Capture capture_threads(const Target& target, const ThreadLayout& layout,
                        std::optional<double> timeout_s) {
  const std::uint64_t total = layout.total_threads();
  if (total > max_captured_threads)
    throw usage_error(
        fmt::format("--run: {} threads exceed the capture limit {} (--grid × --block)", total,
                    max_captured_threads));

  RunRequest request;
  const bool opencl = target.backend_name() == "opencl";
  request.source = opencl ? "threads_capture.cl" : "threads_capture.cu";
  request.source_text =
      std::string(opencl ? threads_capture_opencl_source() : threads_capture_source());
  if (opencl) // lanes where the device has no sub-groups
    request.compile.defines.push_back(
        fmt::format("GPURUN_WARP_SIZE={}", std::max(target.device->properties().warp_size, 1)));
  request.kernel = std::string(threads_capture_kernel);
  request.grid = layout.grid();
  request.block = layout.block();
  // All ones: a record still all ones was never written.
  request.args = {fmt::format("record_bytes=u8[{}]:255", total * sizeof(CapturedThread)),
                  "arrivals=u32[1]:0"};
  request.print = "none";
  PreparedRun run = prepare(request, target);
  execute(run, timeout_s);
  collect(run, request);

  Capture capture{layout, std::vector<CapturedThread>(total), 0};
  const auto records = run.outcome.buffers.at(0).after.bytes();
  std::memcpy(capture.threads.data(), records.data(), records.size());
  std::uint32_t arrivals = 0;
  std::memcpy(&arrivals, run.outcome.buffers.at(1).after.bytes().data(), sizeof arrivals);
  capture.arrivals = arrivals;
  return capture;
}

RowValues captured_row(const ThreadLayout& layout, const CapturedThread& r) {
  auto row = layout.row_of(Dim3{r.block[0], r.block[1], r.block[2]},
                           Dim3{r.thread[0], r.thread[1], r.thread[2]});
  row[col_lane] = r.laneid;
  row[col_lane + 1] = r.warpid;
  row[col_lane + 2] = r.smid;
  row[col_lane + 3] = r.arrival;
  return row;
}

CaptureCheck check_capture(const Capture& capture, std::size_t max_reported) {
  CaptureCheck check;
  check.compared = capture.threads.size();
  check.arrivals = capture.arrivals;
  for (std::uint64_t i = 0; i < capture.threads.size(); ++i) {
    const auto& record = capture.threads[i];
    const auto expected = capture.layout.row(i);
    std::optional<RowValues> got;
    if (!unwritten(record))
      got = captured_row(capture.layout, record);
    // global and linear follow from block and thread, so these seven columns decide.
    const bool same = got &&
                      std::equal(expected.begin(), expected.begin() + col_global_x, got->begin()) &&
                      (*got)[col_lane] == expected[col_lane];
    if (same)
      continue;
    ++check.differing;
    if (check.first.size() < max_reported)
      check.first.push_back({i, expected, got});
  }
  return check;
}

Placement placement_of(const Capture& capture) {
  Placement p;
  const std::uint64_t tpb = capture.layout.threads_per_block();
  for (std::uint64_t start = 0; start < capture.threads.size(); start += tpb) {
    const auto& lead = capture.threads[start];
    if (unwritten(lead))
      continue;
    ++p.blocks_per_sm[lead.smid];
    for (std::uint64_t i = start + 1; i < start + tpb; ++i)
      if (!unwritten(capture.threads[i]) && capture.threads[i].smid != lead.smid) {
        ++p.split_blocks;
        break;
      }
  }
  return p;
}

CaptureOrder parse_capture_order(std::string_view text) {
  if (text == "sorted")
    return CaptureOrder::sorted;
  if (text == "capture")
    return CaptureOrder::capture;
  throw usage_error(fmt::format("--order '{}': expected sorted or capture", text));
}

std::vector<std::string> captured_columns() {
  std::vector<std::string> columns(thread_columns.begin(), thread_columns.end());
  for (const char* extra : {"hw_warp", "sm", "arrival", "timestamp"})
    columns.emplace_back(extra);
  return columns;
}

CapturedTable::CapturedTable(const Capture& capture, CaptureOrder order)
    : m_capture(capture), m_columns(captured_columns()) {
  const auto& threads = capture.threads;
  std::uint64_t timer_min = UINT64_MAX;
  std::uint64_t timer_max = 0;
  std::uint64_t clock_min = UINT64_MAX;
  for (const auto& r : threads) {
    if (unwritten(r))
      continue;
    timer_min = std::min(timer_min, r.globaltimer);
    timer_max = std::max(timer_max, r.globaltimer);
    clock_min = std::min(clock_min, r.clock);
  }
  m_use_clock = timer_max == 0;
  m_time_base = m_use_clock ? clock_min : timer_min;
  m_timestamp_unit = m_use_clock ? "clock64_cycles" : "globaltimer_ns";
  if (order == CaptureOrder::capture) {
    m_order.resize(threads.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    // Threads that never arrived carry arrival 0xffffffff and so sort last.
    std::stable_sort(m_order.begin(), m_order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return threads[a].arrival < threads[b].arrival;
    });
  }
}

RowValues CapturedTable::row(std::uint64_t index) const {
  const auto slot = m_order.empty() ? index : m_order[index];
  const auto& r = m_capture.threads[slot];
  auto row = captured_row(m_capture.layout, r);
  const std::uint64_t t = m_use_clock ? r.clock : r.globaltimer;
  row[col_lane + 4] = unwritten(r) || t < m_time_base ? 0 : t - m_time_base;
  return row;
}

} // namespace gpurun
