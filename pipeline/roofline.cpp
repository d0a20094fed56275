#include "pipeline/roofline.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

namespace gpurun {
using nlohmann::json;

namespace {

json finite_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

constexpr std::string_view k_precisions[] = {"fp32", "fp64", "fp16"};

// The roofline preset: what Nsight Compute's roofline sections read. Flops are thread-level
// instructions executed with their predicate on: add + mul + 2 × fma per precision.
const std::vector<std::string>& preset() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> m{"gpu__time_duration.sum", "dram__bytes.sum",
                               "sm__warps_active.avg.pct_of_peak_sustained_active"};
    for (const char* p : {"f", "d", "h"})
      for (const char* op : {"add", "mul", "fma"})
        m.push_back(std::string("smsp__sass_thread_inst_executed_op_") + p + op +
                    "_pred_on.sum");
    m.insert(m.end(), {"sm__cycles_elapsed.avg.per_second", "dram__cycles_elapsed.avg.per_second",
                       "dram__bytes.sum.peak_sustained"});
    for (const char* p : {"f", "d", "h"})
      m.push_back(std::string("sm__sass_thread_inst_executed_op_") + p +
                  "fma_pred_on.sum.peak_sustained");
    return m;
  }();
  return metrics;
}

// "fp32" → the letter of its SASS opcodes.
std::string_view letter(std::string_view precision) {
  return precision == "fp64" ? "d" : precision == "fp16" ? "h" : "f";
}

} // namespace

const ComputeRoof* Roofline::roof(std::string_view precision) const {
  for (const ComputeRoof& r : compute)
    if (r.precision == precision)
      return &r;
  return nullptr;
}

std::optional<RooflinePoint> place(const Roofline& roofline, std::string_view precision,
                                   double flops, double bytes, double seconds) {
  if (!(bytes > 0) || !(seconds > 0) || !(roofline.bandwidth_bytes_per_s > 0))
    return std::nullopt;
  const ComputeRoof* roof = roofline.roof(precision);
  if (roof == nullptr)
    roof = roofline.roof("fp32");
  if (roof == nullptr || !(roof->flops_per_s > 0))
    return std::nullopt;
  RooflinePoint p;
  p.precision = roof->precision;
  p.flops = flops;
  p.bytes = bytes;
  p.seconds = seconds;
  p.intensity = flops / bytes;
  p.achieved_flops_per_s = flops / seconds;
  p.ridge = roof->flops_per_s / roofline.bandwidth_bytes_per_s;
  p.roof_flops_per_s = std::min(roof->flops_per_s, p.intensity * roofline.bandwidth_bytes_per_s);
  p.bound = p.intensity < p.ridge ? "memory" : "compute";
  // A kernel that does no arithmetic sits at intensity 0: its roof is its bandwidth's.
  if (p.roof_flops_per_s > 0)
    p.fraction = p.achieved_flops_per_s / p.roof_flops_per_s;
  else
    p.fraction = bytes / seconds / roofline.bandwidth_bytes_per_s;
  return p;
}

int fma_lanes_per_sm(std::string_view arch, std::string_view precision) {
  int sm = 0;
  if (!arch.starts_with("sm_"))
    return 0;
  const auto digits = arch.substr(3);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sm);
  if (ec != std::errc{})
    return 0;
  // FP32, FP64 and (non-tensor) FP16 FMA units per SM, from NVIDIA's architecture whitepapers
  // and the CUDA programming guide's arithmetic-throughput table.
  struct Lanes {
    int sm, fp32, fp64, fp16;
  };
  static constexpr Lanes table[] = {
      {50, 128, 4, 0},    {52, 128, 4, 0},    {53, 128, 4, 256},  {60, 64, 32, 128},
      {61, 128, 4, 2},    {62, 128, 4, 256},  {70, 64, 32, 128},  {72, 64, 2, 128},
      {75, 64, 2, 128},   {80, 64, 32, 256},  {86, 128, 2, 128},  {87, 128, 2, 256},
      {89, 128, 2, 128},  {90, 128, 64, 256}, {100, 128, 64, 256}, {103, 128, 2, 256},
      {120, 128, 2, 128}, {121, 128, 2, 128},
  };
  for (const Lanes& l : table)
    if (l.sm == sm)
      return precision == "fp64" ? l.fp64 : precision == "fp16" ? l.fp16 : l.fp32;
  return 0;
}

std::optional<Roofline> device_roofline(const DeviceProperties& properties, double sm_clock_mhz) {
  if (!(properties.memory_bandwidth_gbs > 0) || !(sm_clock_mhz > 0) ||
      properties.multiprocessors <= 0)
    return std::nullopt;
  Roofline r;
  r.source = "device";
  r.bandwidth_bytes_per_s = properties.memory_bandwidth_gbs * 1e9;
  for (std::string_view precision : k_precisions)
    if (const int lanes = fma_lanes_per_sm(properties.arch, precision); lanes > 0)
      r.compute.push_back({std::string(precision), 2.0 * lanes * properties.multiprocessors *
                                                       sm_clock_mhz * 1e6});
  if (r.roof("fp32") == nullptr)
    return std::nullopt;
  return r;
}

const std::vector<std::string>& roofline_metrics() {
  return preset();
}

std::optional<CounterRoofline> roofline_from_counters(const CounterReport& counters,
                                                      std::optional<double> seconds) {
  std::map<std::string, double, std::less<>> v;
  for (const MetricValue& m : counters.values)
    v[m.name] = m.value;
  for (const std::string& name : preset())
    if (!v.contains(name))
      return std::nullopt;
  CounterRoofline out;
  Roofline& r = out.roofline;
  r.source = "counters";
  r.bandwidth_bytes_per_s =
      v["dram__bytes.sum.peak_sustained"] * v["dram__cycles_elapsed.avg.per_second"];
  const double sm_hz = v["sm__cycles_elapsed.avg.per_second"];
  // The precision with the most flops, fp16 only where there are no fp32 or fp64 ones: compilers
  // use HFMA2 to move constants into registers (HFMA2.MMA R, -RZ, RZ, c, c), which the
  // counters (Nsight Compute's too) count as fp16 fmas, so a reduction of floats shows more
  // "fp16 flops" than fp32 ones.
  double best_flops = -1;
  std::string_view best = "fp32";
  for (std::string_view precision : k_precisions) {
    const std::string l(letter(precision));
    const double peak =
        2.0 * v["sm__sass_thread_inst_executed_op_" + l + "fma_pred_on.sum.peak_sustained"] * sm_hz;
    if (peak > 0)
      r.compute.push_back({std::string(precision), peak});
    const std::string stem = "smsp__sass_thread_inst_executed_op_" + l;
    const double flops = v[stem + "add_pred_on.sum"] + v[stem + "mul_pred_on.sum"] +
                         2.0 * v[stem + "fma_pred_on.sum"];
    if (flops > best_flops && (precision != "fp16" || best_flops <= 0)) {
      best_flops = flops;
      best = precision;
    }
  }
  // gpu__time_duration is in nanoseconds.
  const double duration_s = seconds.value_or(v["gpu__time_duration.sum"] * 1e-9);
  auto point = place(r, best, best_flops, v["dram__bytes.sum"], duration_s);
  if (!point)
    return std::nullopt;
  point->source = "counters";
  out.point = *point;
  return out;
}

json roofline_point_json(const RooflinePoint& p) {
  return {{"precision", p.precision},
          {"flops", p.flops},
          {"bytes", p.bytes},
          {"seconds", p.seconds},
          {"intensity", finite_or_null(p.intensity)},
          {"achieved_flops_per_s", finite_or_null(p.achieved_flops_per_s)},
          {"roof_flops_per_s", finite_or_null(p.roof_flops_per_s)},
          {"fraction", finite_or_null(p.fraction)},
          {"ridge", finite_or_null(p.ridge)},
          {"bound", p.bound},
          {"source", p.source}};
}

json roofline_json(const Roofline& r) {
  json compute = json::object();
  for (const ComputeRoof& c : r.compute)
    compute[c.precision] = c.flops_per_s;
  return {{"bandwidth_bytes_per_s", r.bandwidth_bytes_per_s},
          {"compute_flops_per_s", compute},
          {"source", r.source}};
}

} // namespace gpurun
