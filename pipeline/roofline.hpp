#pragma once
// The roofline model: a device's peak memory bandwidth and peak arithmetic rate by precision,
// and where a kernel's launch sits under them: its arithmetic intensity (flops per DRAM byte),
// the rate it achieved, the roof above it (the lesser of peak compute and intensity × peak
// bandwidth), the fraction of that roof it reached and what bounds it. The roofs come from the
// hardware counters when the roofline preset was collected (as Nsight Compute draws its
// roofline), else from the device's properties and SM clock (docs/counters.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "backends/backend.hpp"

namespace gpurun {

/// One compute roof.
struct ComputeRoof {
  std::string precision; ///< "fp32", "fp64", "fp16"
  double flops_per_s = 0;
};

struct Roofline {
  double bandwidth_bytes_per_s = 0; ///< peak DRAM bandwidth
  std::vector<ComputeRoof> compute; ///< fp32 first
  std::string source;               ///< "counters" or "device" (properties and SM clock)
  [[nodiscard]] const ComputeRoof* roof(std::string_view precision) const;
};

/// A launch placed on a roofline.
struct RooflinePoint {
  std::string precision; ///< the compute roof it is set against
  double flops = 0;      ///< per launch
  double bytes = 0;      ///< DRAM bytes per launch
  double seconds = 0;    ///< per launch
  double intensity = 0;  ///< flops / bytes
  double achieved_flops_per_s = 0;
  double roof_flops_per_s = 0; ///< min(peak compute, intensity × peak bandwidth)
  double fraction = 0;         ///< achieved / roof
  double ridge = 0;            ///< the intensity where the two roofs meet
  std::string bound;           ///< "memory" (intensity below the ridge) or "compute"
  std::string source;          ///< "counters" or "declared" (a suite's bytes and flops)
};

/// Places `flops` and `bytes` done in `seconds` under the roof of `precision` (fp32 where the
/// roofline has no such roof). nullopt when bytes or seconds are not positive.
[[nodiscard]] std::optional<RooflinePoint> place(const Roofline& roofline,
                                                 std::string_view precision, double flops,
                                                 double bytes, double seconds);

/// Peak FMA lanes per SM of an NVIDIA architecture ("sm_90") for a precision; 0 when unknown.
[[nodiscard]] int fma_lanes_per_sm(std::string_view arch, std::string_view precision);

/// The roofs from the device's properties: theoretical bandwidth, and 2 flops per FMA lane per
/// cycle over every SM at `sm_clock_mhz` (the clock the device runs at unheld). nullopt when the
/// bandwidth or the architecture's lanes are unknown.
[[nodiscard]] std::optional<Roofline> device_roofline(const DeviceProperties& properties,
                                                      double sm_clock_mhz);

/// The metrics of the `roofline` preset of --metrics.
[[nodiscard]] const std::vector<std::string>& roofline_metrics();

/// The roofs and the launch's point from counters that include the roofline preset; the
/// achieved rate over `seconds` when given (a benchmark's median), else over the counted
/// gpu__time_duration. nullopt when a needed metric is missing.
struct CounterRoofline {
  Roofline roofline;
  RooflinePoint point;
};
[[nodiscard]] std::optional<CounterRoofline>
roofline_from_counters(const CounterReport& counters, std::optional<double> seconds = {});

/// The point as JSON: precision, flops, bytes, seconds, intensity, achieved_flops_per_s,
/// roof_flops_per_s, fraction, ridge, bound, source (non-finite numbers as null).
[[nodiscard]] nlohmann::json roofline_point_json(const RooflinePoint& point);
/// The roofs as JSON: bandwidth_bytes_per_s, compute_flops_per_s {PRECISION: value}, source.
[[nodiscard]] nlohmann::json roofline_json(const Roofline& roofline);

} // namespace gpurun
