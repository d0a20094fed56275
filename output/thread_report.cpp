#include "output/thread_report.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpurun {

nlohmann::ordered_json dims_json(const Dim3& d) {
  return nlohmann::ordered_json::array({d.x, d.y, d.z});
}

nlohmann::ordered_json to_json(const WarpSummary& s) {
  return {
      {"grid", dims_json(s.grid)},
      {"block", dims_json(s.block)},
      {"warp_size", s.warp_size},
      {"blocks", s.blocks},
      {"threads_per_block", s.threads_per_block},
      {"total_threads", s.total_threads},
      {"warps_per_block", s.warps_per_block},
      {"full_warps_per_block", s.full_warps_per_block},
      {"partial_warps_per_block", s.partial_warps_per_block},
      {"partial_warp_active_lanes", s.partial_warp_active_lanes},
      {"idle_lanes_per_block", s.idle_lanes_per_block},
      {"idle_lane_share", s.idle_lane_share},
      {"total_warps", s.total_warps},
      {"total_idle_lanes", s.total_idle_lanes},
  };
}

std::string format_summary(const WarpSummary& s) {
  std::string text = fmt::format("grid {} × block {}, warp size {}\n", to_string(s.grid),
                                 to_string(s.block), s.warp_size);
  text += fmt::format("blocks: {} · threads per block: {} · total threads: {}\n", s.blocks,
                      s.threads_per_block, s.total_threads);
  text += fmt::format("warps per block: {} ({} full", s.warps_per_block, s.full_warps_per_block);
  if (s.partial_warps_per_block != 0)
    text += fmt::format(", 1 partial with {} active lane{} and {} idle ({:.1f}% of lanes idle)",
                        s.partial_warp_active_lanes, s.partial_warp_active_lanes == 1 ? "" : "s",
                        s.idle_lanes_per_block, 100.0 * s.idle_lane_share);
  else
    text += ", no partial warp";
  text += fmt::format(") · total warps: {}\n", s.total_warps);
  return text;
}

namespace {

std::string row_text(const RowValues& r) {
  return fmt::format("block ({},{},{}) thread ({},{},{}) lane {}", r[col_block_x], r[col_block_y],
                     r[col_block_z], r[col_thread_x], r[col_thread_y], r[col_thread_z],
                     r[col_lane]);
}

nlohmann::ordered_json row_json(const RowValues& r) {
  return {{"block", {r[col_block_x], r[col_block_y], r[col_block_z]}},
          {"thread", {r[col_thread_x], r[col_thread_y], r[col_thread_z]}},
          {"lane", r[col_lane]}};
}
} // namespace

std::string format_check(const CaptureCheck& check) {
  if (check.ok())
    return fmt::format("capture check: all {} threads match the arithmetic table (block and thread "
                       "indices, lanes)\n",
                       check.compared);
  std::string text;
  if (check.differing != 0)
    text += fmt::format("capture check: {} of {} threads differ from the arithmetic table; first "
                        "differences:\n",
                        check.differing, check.compared);
  for (const auto& m : check.first)
    text += fmt::format("  thread {}: expected {}, captured {}\n", m.index, row_text(m.expected),
                        m.captured ? row_text(*m.captured) : "nothing (the thread did not run)");
  if (check.arrivals != check.compared)
    text += fmt::format("capture check: {} threads arrived, {} were launched\n", check.arrivals,
                        check.compared);
  return text;
}

nlohmann::ordered_json to_json(const CaptureCheck& check) {
  auto first = nlohmann::ordered_json::array();
  for (const auto& m : check.first)
    first.push_back({{"index", m.index},
                     {"expected", row_json(m.expected)},
                     {"captured", m.captured ? row_json(*m.captured) : nlohmann::ordered_json()}});
  return {{"status", check.ok() ? "ok" : "mismatch"},
          {"compared", check.compared},
          {"differing", check.differing},
          {"arrivals", check.arrivals},
          {"first_differences", first}};
}

std::string format_placement(const Placement& p, int device_sms) {
  if (p.blocks_per_sm.empty())
    return "placement: no block reported an SM\n";
  std::uint64_t least = UINT64_MAX;
  std::uint64_t most = 0;
  std::uint64_t blocks = 0;
  for (const auto& [sm, n] : p.blocks_per_sm) {
    least = std::min(least, n);
    most = std::max(most, n);
    blocks += n;
  }
  std::string text = fmt::format("placement: {} block{} on {} SM{}", blocks, blocks == 1 ? "" : "s",
                                 p.blocks_per_sm.size(), p.blocks_per_sm.size() == 1 ? "" : "s");
  if (device_sms > 0)
    text += fmt::format(" of {}", device_sms);
  text += fmt::format(" · blocks per SM: min {}, max {}\n", least, most);
  std::size_t column = 0;
  for (const auto& [sm, n] : p.blocks_per_sm) {
    const auto item = fmt::format("  sm {}: {}", sm, n);
    if (column != 0 && column + item.size() > 100) {
      text += '\n';
      column = 0;
    }
    text += item;
    column += item.size();
  }
  text += '\n';
  if (p.split_blocks != 0)
    text += fmt::format("placement: {} block(s) reported more than one SM\n", p.split_blocks);
  return text;
}

nlohmann::ordered_json to_json(const Placement& p) {
  nlohmann::ordered_json per_sm = nlohmann::ordered_json::object();
  for (const auto& [sm, n] : p.blocks_per_sm)
    per_sm[std::to_string(sm)] = n;
  return {{"sms_used", p.blocks_per_sm.size()},
          {"blocks_per_sm", per_sm},
          {"split_blocks", p.split_blocks}};
}
std::string format_threads_head(const ThreadsReport& report) {
  std::string text = format_summary(report.summary);
  if (report.capture)
    text += fmt::format("captured on {} · order: {} · timestamp: {}\n", report.device_label,
                        report.capture->order, report.capture->timestamp_unit);
  else
    text += fmt::format("warp size from: {}\n", report.warp_source);
  return text;
}

std::string format_capture(const CaptureReport& capture) {
  return format_check(capture.check) + format_placement(capture.placement, capture.device_sms);
}

nlohmann::ordered_json threads_document_head(const ThreadsReport& report) {
  nlohmann::ordered_json head{
      {"grid", dims_json(report.summary.grid)}, {"block", dims_json(report.summary.block)},
      {"warp_size", report.summary.warp_size},  {"warp_size_source", report.warp_source},
      {"device", report.device_label},          {"summary", to_json(report.summary)}};
  if (const auto& c = report.capture) {
    head["backend"] = c->backend;
    head["order"] = c->order;
    head["timestamp_unit"] = c->timestamp_unit;
    head["check"] = to_json(c->check);
    head["placement"] = to_json(c->placement);
    head["placement"]["device_sms"] = c->device_sms;
  }
  return head;
}

std::string markdown_list(const std::string& lines) {
  std::string out;
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);)
    out += "- " + line.substr(std::min(line.size(), line.find_first_not_of(' '))) + "\n";
  return out;
}

} // namespace gpurun
