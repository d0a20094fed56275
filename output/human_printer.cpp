#include "output/human_printer.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "base/format.hpp"
#include "output/bench_report.hpp"
#include "output/color.hpp"
#include "output/comparison_report.hpp"
#include "output/counter_report.hpp"
#include "output/run_report.hpp"
#include "output/thread_report.hpp"
#include "output/thread_rows.hpp"

namespace gpurun {

namespace {

std::string human_bytes(std::uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 1)
    return fmt::format("{:.1f} GiB", gib);
  return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

void print_device_line(std::ostream& out, const std::string& backend, std::size_t index,
                       const DeviceProperties& p) {
  fmt::print(out, "  {}:{}  {} ({}, {} SMs, warp {}, {}", backend, index, p.name, p.arch,
             p.multiprocessors, p.warp_size, human_bytes(p.total_memory));
  if (p.memory_bandwidth_gbs > 0)
    fmt::print(out, ", {:.0f} GB/s", p.memory_bandwidth_gbs);
  fmt::print(out, ", max block {} threads, shared {} KiB/{} KiB opt-in)\n", p.max_threads_per_block,
             p.max_shared_per_block / 1024, p.max_shared_per_block_optin / 1024);
}

void print_resources(std::ostream& out, const ResourceReport& r) {
  if (r.from_ptxas) {
    fmt::print(out, "{:<32} {:>9} {:>8} {:>12} {:>11} {:>12} {:>11}\n", "kernel", "registers",
               "barriers", "shared bytes", "stack bytes", "spill st/ld", "cmem bytes");
    for (const auto& k : r.ptxas)
      fmt::print(out, "{:<32} {:>9} {:>8} {:>12} {:>11} {:>12} {:>11}\n", demangled(k.name),
                 k.registers, k.barriers, k.shared_bytes, k.stack_frame_bytes,
                 fmt::format("{}/{}", k.spill_store_bytes, k.spill_load_bytes), k.constant_bytes);
  } else if (!r.code_object.empty()) {
    fmt::print(out, "{:<32} {:>5} {:>5} {:>5} {:>9} {:>13} {:>11} {:>8} {:>11}\n", "kernel",
               "vgprs", "agprs", "sgprs", "lds bytes", "scratch bytes", "spills v/s", "wave",
               "max threads");
    auto count = [](int n) { return n < 0 ? std::string("-") : std::to_string(n); };
    for (const auto& k : r.code_object)
      fmt::print(out, "{:<32} {:>5} {:>5} {:>5} {:>9} {:>13} {:>11} {:>8} {:>11}\n",
                 demangled(k.name), count(k.vgprs), count(k.agprs), count(k.sgprs), k.lds_bytes,
                 fmt::format("{}{}", k.scratch_bytes, k.dynamic_stack ? "+" : ""),
                 fmt::format("{}/{}", k.vgpr_spills, k.sgpr_spills), k.wavefront_size,
                 k.max_flat_workgroup_size);
  } else {
    fmt::print(out, "{:<32} {:>9} {:>13} {:>12} {:>11}\n", "kernel", "registers", "shared bytes",
               "local bytes", "max threads");
    for (const auto& [name, a] : r.loaded)
      fmt::print(out, "{:<32} {:>9} {:>13} {:>12} {:>11}\n", demangled(name),
                 a.registers < 0 ? std::string("-") : std::to_string(a.registers),
                 a.static_shared_bytes, a.local_bytes, a.max_threads_per_block);
  }
  fmt::print(out, "({})\n", r.measured_by);
}

void print_occupancy(std::ostream& out, const std::vector<arch::Occupancy>& kernels) {
  const auto& first = kernels.front();
  fmt::print(out, "occupancy on {}, {} threads per block, {} bytes of dynamic shared memory\n",
             first.arch, first.block_size, first.dynamic_shared);
  fmt::print(out, "{:<32} {:>9} {:>9} {:>9}  {}\n", "kernel", "blocks/SM", "warps/SM",
             "occupancy", "limited by");
  for (const auto& o : kernels) {
    fmt::print(out, "{:<32} {:>9} {:>9} {:>8.1f}%  {}\n", demangled(o.kernel),
               o.active_blocks_per_sm, fmt::format("{}/{}", o.active_warps_per_sm, o.max_warps_per_sm),
               100 * o.occupancy, o.cannot_launch.empty() ? fmt::format("{}", fmt::join(o.limited_by, ", ")) : "cannot launch: " + o.cannot_launch);
    std::vector<std::string> each;
    for (const auto& l : o.limits)
      each.push_back(l.blocks >= 1 << 20 ? l.resource + " -" : fmt::format("{} {}", l.resource, l.blocks));
    fmt::print(out, "  blocks per SM each resource allows: {}\n", fmt::join(each, " · "));
    for (const auto& l : o.limits)
      if (!l.next_step.empty())
        fmt::print(out, "  one more block with {}\n", l.next_step);
    if (!o.best_block_sizes.empty())
      fmt::print(out, "  best block sizes ({:.1f}%): {}\n", 100 * o.best_occupancy,
                 fmt::join(o.best_block_sizes, ", "));
  }
}

bool only_roofline_metrics(const CounterReport& counters) {
  const auto& preset = roofline_metrics();
  return std::all_of(counters.values.begin(), counters.values.end(), [&](const MetricValue& m) {
    return std::find(preset.begin(), preset.end(), m.name) != preset.end();
  });
}

} // namespace

void HumanPrinter::do_print_launch(const RunOutcome& outcome) {
  out() << render_launch_line(outcome);
}

void HumanPrinter::do_print_run(const RunOutcome& outcome, const RunView& view) {
  if (!view.quiet) {
    out() << render_results(outcome, view.print, colors_for(out()));
    return;
  }
  // --quiet: only failures, each once.
  const bool failed = std::any_of(outcome.checks.begin(), outcome.checks.end(),
                                  [](const CheckReport& c) { return !c.passed; });
  if (failed)
    out() << render_results(outcome, "none", colors_for(out()));
}

void HumanPrinter::do_print_devices(const DevicesReport& report) {
  for (const auto& backend : report.backends) {
    if (!backend.available) {
      fmt::print(out(), "{:<7} unavailable: {}\n", backend.name, backend.reason);
      continue;
    }
    fmt::print(out(), "{:<7} available, {} device(s)\n", backend.name, backend.devices.size());
    for (std::size_t i = 0; i < backend.devices.size(); ++i) {
      print_device_line(out(), backend.name, i, backend.devices[i]);
      if (i < backend.clocks.size())
        fmt::print(out(), "    clocks: {}\n", backend.clocks[i]);
    }
  }
  fmt::print(out(), "compilers (CUDA source)\n");
  for (const auto& c : report.compilers) {
    if (c.available)
      fmt::print(out(), "  {:<6} available, {}, {}{}\n", c.name, c.version, c.location,
                 c.builtins.empty() ? std::string() : fmt::format(" (builtins {})", c.builtins));
    else
      fmt::print(out(), "  {:<6} unavailable: {}\n", c.name, c.reason);
  }
  if (report.chosen.available)
    fmt::print(out(), "  .cu files compile with {}\n", report.chosen.name);
  else
    fmt::print(out(), "  .cu files cannot be compiled here; .ptx files run\n");
  if (const auto& hip = report.hip_compiler) {
    fmt::print(out(), "compilers (HIP source for AMD GPUs)\n");
    if (hip->available)
      fmt::print(out(), "  {:<6} available, {}, {}\n", hip->name, hip->version, hip->location);
    else
      fmt::print(out(), "  {:<6} unavailable: {}\n", hip->name, hip->reason);
  }
}

void HumanPrinter::do_print_compile(const CompileReport& report) {
  if (!report.output_path.empty()) {
    fmt::print(out(), "wrote {} ({} bytes, {} for {})\n", report.output_path, report.bytes,
               report.binary_format, report.target);
  } else if (report.ptx) {
    out() << *report.ptx;
  } else if (!report.resources) {
    fmt::print(out(), "{}: ok ({} bytes of {} for {}, {})\n", report.file, report.bytes,
               report.binary_format, report.target, report.compiler_version);
  }
  if (!report.left_out.empty() && !report.ptx)
    fmt::print(out(), "whole file: {}\n", report.left_out);
  if (report.resources)
    print_resources(out(), *report.resources);
  if (!report.occupancy.empty())
    print_occupancy(out(), report.occupancy);
}

void HumanPrinter::do_print_threads(const ThreadsReport& report) {
  out() << format_threads_head(report) << '\n';
  write_rows(out(), *report.table, report.view);
  if (report.capture)
    out() << '\n' << format_capture(*report.capture);
}

void HumanPrinter::do_print_bench(const bench::BenchReport& report) {
  auto print_peak = [&](const bench::BenchReport& r) {
    if (r.measured_peak_gbs)
      fmt::print(out(),
                 "measured peak bandwidth: {:.1f} GB/s ({:.1f}% of {:.0f} GB/s theoretical)\n",
                 *r.measured_peak_gbs,
                 r.peak_bandwidth_gbs > 0 ? 100 * *r.measured_peak_gbs / r.peak_bandwidth_gbs : 0.0,
                 r.peak_bandwidth_gbs);
    if (!r.peak_error.empty())
      fmt::print(out(), "measured peak bandwidth: none ({})\n", r.peak_error);
  };
  if (report.cases.empty() && report.p2p) {
    // --p2p alone: the matrix is the report.
  } else if (!report.multi_device()) {
    fmt::print(out(), "{} on {}:{} {} · {} · noise ≤ {:.2g}% · clocks: {}\n", report.suite,
               report.backend, report.device_index, report.device, report.mode,
               100 * report.rules.max_noise, report.clocks);
    print_peak(report);
    if (report.roofline)
      out() << roofs_line(*report.roofline);
    out() << '\n' << bench_markdown(report);
    // Each case's counters, unless they are only the roofline preset's: the table's roofline
    // columns say what those do, and the JSON has them all.
    for (const auto& c : report.cases)
      if (c.counters && !only_roofline_metrics(*c.counters))
        out() << '\n' << c.name << ": " << counters_text(*c.counters);
  } else {
    fmt::print(out(), "{} on {} device{} of {} · {} · noise ≤ {:.2g}% · {} in all\n", report.suite,
               report.devices.size(), report.devices.size() == 1 ? "" : "s", report.backend,
               report.mode, 100 * report.rules.max_noise, format_duration(report.wall_s));
    out() << bench_devices_text(report);
    // Each model its own table: times of different models are not comparable.
    for (const auto& section : bench_model_sections(report)) {
      fmt::print(out(), "\n{} · clocks: {}\n", section.title, section.report.clocks);
      print_peak(section.report);
      out() << '\n' << bench_markdown(section.report);
    }
  }
  if (report.p2p)
    fmt::print(out(),
               "{}copy bandwidth between {} devices, GB/s ({} per copy; rows: from, columns: "
               "to)\n\n{}",
               report.cases.empty() ? "" : "\n", report.backend, byte_size(report.p2p->bytes),
               p2p_markdown(*report.p2p));
  if (const std::size_t failed = report.failed(); failed > 0)
    fmt::print(out(), "\n{}\n",
               paint(Tone::bad, fmt::format("{} of {} cases skipped", failed, report.cases.size()),
                     colors_for(out())));
  for (const auto& d : report.devices)
    if (d.failed())
      fmt::print(out(), "{}\n",
                 paint(Tone::bad,
                       fmt::format("device {}:{} failed: {}", report.backend, d.index, d.error),
                       colors_for(out())));
}

// The Markdown table reads as well on a terminal as in a pull request.
void HumanPrinter::do_print_comparison(const bench::ComparisonReport& report) {
  out() << render_comparison_table(report, colors_for(out()));
}

} // namespace gpurun
