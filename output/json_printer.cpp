#include "output/json_printer.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "bench/result_json.hpp"
#include "output/bench_report.hpp"
#include "output/comparison_report.hpp"
#include "output/error_report.hpp"
#include "output/run_report.hpp"
#include "output/thread_report.hpp"
#include "output/thread_rows.hpp"

namespace gpurun {

// `devices --json` keeps its keys sorted (nlohmann::json); newer documents keep their order.
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

json device_json(const DeviceProperties& p, std::size_t index) {
  return {{"index", index},
          {"name", p.name},
          {"vendor", p.vendor},
          {"arch", p.arch},
          {"compute_capability", fmt::format("{}.{}", p.compute_major, p.compute_minor)},
          {"multiprocessors", p.multiprocessors},
          {"warp_size", p.warp_size},
          {"total_memory_bytes", p.total_memory},
          {"max_threads_per_block", p.max_threads_per_block},
          {"max_block", {p.max_block.x, p.max_block.y, p.max_block.z}},
          {"max_grid", {p.max_grid.x, p.max_grid.y, p.max_grid.z}},
          {"max_shared_per_block", p.max_shared_per_block},
          {"max_shared_per_block_optin", p.max_shared_per_block_optin},
          {"l2_bytes", p.l2_bytes},
          {"clock_khz", p.clock_khz},
          {"memory_clock_khz", p.memory_clock_khz},
          {"memory_bus_bits", p.memory_bus_bits},
          {"memory_bandwidth_gbs", p.memory_bandwidth_gbs},
          {"driver_version", p.driver_version}};
}

json compilers_json(const DevicesReport& report) {
  json out = json::object();
  auto all = report.compilers;
  if (report.hip_compiler)
    all.push_back(*report.hip_compiler);
  for (const auto& c : all) {
    json entry{{"available", c.available}};
    if (c.available) {
      entry["version"] = c.version;
      entry["location"] = c.location;
      if (!c.builtins.empty())
        entry["builtins"] = c.builtins;
    } else {
      entry["reason"] = c.reason;
    }
    out[c.name] = entry;
  }
  // The compiler a .cu compile uses without --compiler; null when there is none.
  out["selected"] = report.chosen.available ? json(report.chosen.name) : json();
  return out;
}

ordered_json resources_json(const ResourceReport& r) {
  ordered_json kernels = ordered_json::array();
  for (const auto& k : r.ptxas)
    kernels.push_back({{"kernel", k.name},
                       {"registers", k.registers},
                       {"barriers", k.barriers},
                       {"shared_bytes", k.shared_bytes},
                       {"stack_bytes", k.stack_frame_bytes},
                       {"spill_store_bytes", k.spill_store_bytes},
                       {"spill_load_bytes", k.spill_load_bytes},
                       {"const_bytes", k.constant_bytes}});
  for (const auto& k : r.code_object) {
    auto count = [](int n) { return n < 0 ? ordered_json() : ordered_json(n); };
    kernels.push_back({{"kernel", k.name},
                       {"vgprs", count(k.vgprs)},
                       {"agprs", count(k.agprs)},
                       {"sgprs", count(k.sgprs)},
                       {"vgpr_spills", k.vgpr_spills},
                       {"sgpr_spills", k.sgpr_spills},
                       {"lds_bytes", k.lds_bytes},
                       {"scratch_bytes", k.scratch_bytes},
                       {"dynamic_stack", k.dynamic_stack},
                       {"kernarg_bytes", k.kernarg_bytes},
                       {"wavefront_size", k.wavefront_size},
                       {"max_threads_per_block", k.max_flat_workgroup_size}});
  }
  for (const auto& [name, a] : r.loaded)
    kernels.push_back({{"kernel", name},
                       {"registers", a.registers < 0 ? ordered_json() : ordered_json(a.registers)},
                       {"shared_bytes", a.static_shared_bytes},
                       {"local_bytes", a.local_bytes},
                       {"max_threads_per_block", a.max_threads_per_block}});
  return {{"measured_by", r.measured_by}, {"kernels", kernels}};
}

} // namespace

void JsonPrinter::do_print_run(const RunOutcome& outcome, const RunView& /*view*/) {
  out() << dump_document(to_json(outcome)) << '\n';
}

void JsonPrinter::do_print_devices(const DevicesReport& report) {
  json backends = json::array();
  for (const auto& backend : report.backends) {
    json entry{{"name", backend.name}, {"available", backend.available}};
    if (!backend.available)
      entry["reason"] = backend.reason;
    json devices = json::array();
    for (std::size_t i = 0; i < backend.devices.size(); ++i) {
      devices.push_back(device_json(backend.devices[i], i));
      if (i < backend.clocks.size())
        devices.back()["clocks"] = backend.clocks[i];
    }
    entry["devices"] = devices;
    backends.push_back(entry);
  }
  out() << dump_document(json{{"backends", backends}, {"compilers", compilers_json(report)}})
        << '\n';
}

void JsonPrinter::do_print_device_check(const DeviceCheckReport& report) {
  out() << json_text(json{{"backend", report.backend}, {"available", report.available}}) << '\n';
}

void JsonPrinter::do_print_compile(const CompileReport& report) {
  ordered_json document{
      {"file", report.file},
      {"output", report.output_path.empty() ? ordered_json() : ordered_json(report.output_path)},
      {"bytes", report.bytes},
      {"format", report.binary_format},
      {"target", report.target},
      {"compiler", report.compiler_version}};
  if (!report.left_out.empty())
    document["left_out"] = report.left_out;
  if (report.ptx)
    document["ptx"] = *report.ptx;
  if (report.resources)
    document["resources"] = resources_json(*report.resources);
  if (!report.occupancy.empty()) {
    ordered_json kernels = ordered_json::array();
    for (const auto& o : report.occupancy)
      kernels.push_back(ordered_json(occupancy_json(o)));
    document["occupancy"] = kernels;
  }
  out() << dump_document(document) << '\n';
}

void JsonPrinter::do_print_bench(const bench::BenchReport& report) {
  out() << dump_document(bench::result_json(report)) << '\n';
}

void JsonPrinter::do_print_threads(const ThreadsReport& report) {
  write_json_document(out(), threads_document_head(report), *report.table, report.view);
}

void JsonPrinter::do_print_comparison(const bench::ComparisonReport& report) {
  out() << dump_document(comparison_json(report)) << '\n';
}

} // namespace gpurun
