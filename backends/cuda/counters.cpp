#include "backends/cuda/counters.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/cupti.hpp"
#include "base/error.hpp"

namespace gpurun::cuda {
namespace {

// More passes than the configuration said means CUPTI never reported the last one submitted.
constexpr int k_extra_passes = 4;

template <class Params> Params params(std::size_t size) {
  Params p{};
  p.structSize = size;
  return p;
}
#define GPURUN_CUPTI_PARAMS(type, last) params<type>(GPURUN_CUPTI_SIZE(type, last))

// The error of a failed CUPTI call: what keeps the machine from counting is "unavailable" (exit 5),
// anything else a device error.
[[noreturn]] void fail(const Cupti& c, CUptiResult r, const char* call) {
  switch (r) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    throw unavailable_error(fmt::format(
        "--metrics: {}: {}: this machine lets only administrators read GPU counters (the driver's "
        "NVreg_RestrictProfilingToAdminUsers); run as root or set it to 0",
        call, c.describe(r)));
  case CUPTI_ERROR_NOT_SUPPORTED:
  case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
  case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
  case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
  case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
  case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    throw unavailable_error(fmt::format("--metrics: {}: {} (another profiler attached, or a "
                                        "device or mode CUPTI cannot profile)",
                                        call, c.describe(r)));
  default:
    throw device_error(fmt::format("--metrics: {} failed: {}", call, c.describe(r)));
  }
}

void check(const Cupti& c, CUptiResult r, const char* call) {
  if (r != CUPTI_SUCCESS)
    fail(c, r, call);
}

const Cupti& usable_cupti() {
  const Cupti& c = cupti();
  if (!c.error.empty())
    throw unavailable_error("--metrics: " + c.error);
  return c;
}

/// cuptiProfilerInitialize … cuptiProfilerDeInitialize.
class ProfilerScope {
public:
  explicit ProfilerScope(const Cupti& c) : m_cupti(c) {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params, pPriv);
    check(c, c.api.profiler_initialize(&p), "cuptiProfilerInitialize");
  }
  ~ProfilerScope() {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params, pPriv);
    (void)m_cupti.api.profiler_deinitialize(&p);
  }
  ProfilerScope(const ProfilerScope&) = delete;
  ProfilerScope& operator=(const ProfilerScope&) = delete;

private:
  const Cupti& m_cupti;
};

/// The device's chip as CUPTI names it, and which of its counters the context may read.
struct Chip {
  std::string name;
  std::vector<std::uint8_t> availability;

  Chip(const Cupti& c, const ContextState& state) {
    auto chip = GPURUN_CUPTI_PARAMS(CUpti_Device_GetChipName_Params, pChipName);
    chip.deviceIndex = static_cast<std::size_t>(state.device);
    check(c, c.api.device_get_chip_name(&chip), "cuptiDeviceGetChipName");
    name = chip.pChipName != nullptr ? chip.pChipName : "";
    auto available = GPURUN_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params,
                                         pCounterAvailabilityImage);
    available.ctx = state.context;
    check(c, c.api.get_counter_availability(&available), "cuptiProfilerGetCounterAvailability");
    availability.resize(available.counterAvailabilityImageSize);
    available.pCounterAvailabilityImage = availability.data();
    check(c, c.api.get_counter_availability(&available), "cuptiProfilerGetCounterAvailability");
  }
};

/// A host object for the chip, which names, configures and evaluates metrics.
class HostObject {
public:
  HostObject(const Cupti& c, const Chip& chip) : m_cupti(c) {
    auto init = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params, pHostObject);
    init.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    init.pChipName = chip.name.c_str();
    init.pCounterAvailabilityImage = chip.availability.data();
    check(c, c.api.host_initialize(&init), "cuptiProfilerHostInitialize");
    m_object = init.pHostObject;
  }
  ~HostObject() {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, pHostObject);
    p.pHostObject = m_object;
    (void)m_cupti.api.host_deinitialize(&p);
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  [[nodiscard]] CUpti_Profiler_Host_Object* get() const { return m_object; }

  /// The properties of a base metric ("dram__bytes"); false when CUPTI has none by that name.
  bool properties(const std::string& base, MetricInfo& info) const {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params, metricType);
    p.pHostObject = m_object;
    p.pMetricName = base.c_str();
    if (m_cupti.api.host_get_metric_properties(&p) != CUPTI_SUCCESS)
      return false;
    info.name = base;
    info.description = p.pDescription != nullptr ? p.pDescription : "";
    info.unit = p.pDimUnit != nullptr ? p.pDimUnit : "";
    switch (p.metricType) {
    case CUPTI_METRIC_TYPE_COUNTER:
      info.kind = "counter";
      break;
    case CUPTI_METRIC_TYPE_RATIO:
      info.kind = "ratio";
      break;
    case CUPTI_METRIC_TYPE_THROUGHPUT:
      info.kind = "throughput";
      break;
    }
    return true;
  }

private:
  const Cupti& m_cupti;
  CUpti_Profiler_Host_Object* m_object = nullptr;
};

/// cuptiRangeProfilerEnable … cuptiRangeProfilerDisable on the context.
class RangeProfiler {
public:
  RangeProfiler(const Cupti& c, CUcontext ctx) : m_cupti(c) {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject);
    p.ctx = ctx;
    check(c, c.api.range_enable(&p), "cuptiRangeProfilerEnable");
    m_object = p.pRangeProfilerObject;
  }
  ~RangeProfiler() {
    auto p = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject);
    p.pRangeProfilerObject = m_object;
    (void)m_cupti.api.range_disable(&p);
  }
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  [[nodiscard]] CUpti_RangeProfiler_Object* get() const { return m_object; }

private:
  const Cupti& m_cupti;
  CUpti_RangeProfiler_Object* m_object = nullptr;
};

std::string collector(const Cupti& c, const std::string& chip) {
  return fmt::format("CUPTI {}range profiler, {}", c.version.empty() ? "" : c.version + " ", chip);
}

std::mutex& profiler_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string base_of(const std::string& metric) {
  return metric.substr(0, metric.find('.'));
}

} // namespace

std::string metric_unit(std::string_view metric, std::string_view base_unit) {
  const auto has = [&](std::string_view part) {
    return metric.find(part) != std::string_view::npos;
  };
  if (has(".pct"))
    return "%";
  if (metric.ends_with(".ratio"))
    return "";
  std::string unit(base_unit);
  if (has(".per_second"))
    return unit.empty() ? "1/second" : unit + "/second";
  if (has(".peak_sustained") || has(".per_cycle"))
    return unit.empty() ? "1/cycle" : unit + "/cycle";
  return unit;
}

namespace {

/// Metrics configured in a host object of their own: the configuration image CUPTI runs and
/// the passes it takes.
struct Configuration {
  std::unique_ptr<HostObject> host;
  std::vector<const char*> names;
  std::vector<std::uint8_t> image;
  std::size_t passes = 0;
};

/// Configures `names`, one at a time so that a name the chip lacks is the one named.
Configuration configure(const Cupti& c, const Chip& chip, std::vector<const char*> names) {
  Configuration config;
  config.host = std::make_unique<HostObject>(c, chip);
  config.names = std::move(names);
  for (const char* name : config.names) {
    auto add = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics);
    add.pHostObject = config.host->get();
    add.ppMetricNames = &name;
    add.numMetrics = 1;
    if (const CUptiResult r = c.api.host_config_add_metrics(&add); r != CUPTI_SUCCESS) {
      if (r == CUPTI_ERROR_INVALID_METRIC_NAME || r == CUPTI_ERROR_INVALID_PARAMETER)
        throw usage_error(fmt::format("--metrics '{}': not a metric of {} ({}); --metrics list "
                                      "shows the device's",
                                      name, chip.name, c.describe(r)));
      fail(c, r, "cuptiProfilerHostConfigAddMetrics");
    }
  }
  auto size = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize);
  size.pHostObject = config.host->get();
  check(c, c.api.host_get_config_image_size(&size), "cuptiProfilerHostGetConfigImageSize");
  config.image.resize(size.configImageSize);
  auto image = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage);
  image.pHostObject = config.host->get();
  image.configImageSize = config.image.size();
  image.pConfigImage = config.image.data();
  check(c, c.api.host_get_config_image(&image), "cuptiProfilerHostGetConfigImage");
  auto passes = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses);
  passes.configImageSize = config.image.size();
  passes.pConfigImage = config.image.data();
  check(c, c.api.host_get_num_of_passes(&passes), "cuptiProfilerHostGetNumOfPasses");
  config.passes = passes.numOfPasses;
  return config;
}

/// The metrics in groups that each take one pass, in order: SASS metrics (counted by
/// instrumenting the kernel) read 0 from every pass but the first of a configuration replayed by
/// the user, as seen with CUPTI 13.0 on an H100, so no configuration runs more than one pass
/// unless a single metric needs more.
std::vector<Configuration> one_pass_groups(const Cupti& c, const Chip& chip,
                                           const std::vector<std::string>& metrics) {
  std::vector<Configuration> groups;
  std::optional<Configuration> current;
  for (const std::string& metric : metrics) {
    std::vector<const char*> names = current ? current->names : std::vector<const char*>{};
    names.push_back(metric.c_str());
    Configuration wider = configure(c, chip, names);
    if (!current || wider.passes <= 1) {
      current = std::move(wider);
      continue;
    }
    groups.push_back(std::move(*current));
    current = configure(c, chip, {metric.c_str()});
  }
  if (current)
    groups.push_back(std::move(*current));
  return groups;
}

/// Runs one configuration over its passes; returns the values of its metrics, in order, and
/// adds the passes run to `passes_run`.
std::vector<double> run_configuration(const Cupti& c, const ContextState& state,
                                      const Configuration& config, const CounterRequest& request,
                                      const std::function<void()>& launch_and_wait,
                                      int& passes_run) {
  RangeProfiler range(c, state.context);
  auto data_size =
      GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize);
  std::vector<const char*> names = config.names;
  data_size.pRangeProfilerObject = range.get();
  data_size.pMetricNames = names.data();
  data_size.numMetrics = names.size();
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  check(c, c.api.range_get_counter_data_size(&data_size), "cuptiRangeProfilerGetCounterDataSize");
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  auto data_init =
      GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData);
  data_init.pRangeProfilerObject = range.get();
  data_init.counterDataSize = counter_data.size();
  data_init.pCounterData = counter_data.data();
  check(c, c.api.range_counter_data_image_initialize(&data_init),
        "cuptiRangeProfilerCounterDataImageInitialize");

  auto set = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel);
  set.pRangeProfilerObject = range.get();
  set.configSize = config.image.size();
  set.pConfig = config.image.data();
  set.counterDataImageSize = counter_data.size();
  set.pCounterDataImage = counter_data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_UserReplay;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  check(c, c.api.range_set_config(&set), "cuptiRangeProfilerSetConfig");

  bool submitted = false;
  std::size_t passes = 0;
  while (!submitted) {
    if (passes >= config.passes + k_extra_passes)
      throw device_error(fmt::format("--metrics: CUPTI asked for more than the {} passes it "
                                     "configured",
                                     config.passes));
    if (request.before_pass)
      request.before_pass();
    auto start = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject);
    start.pRangeProfilerObject = range.get();
    check(c, c.api.range_start(&start), "cuptiRangeProfilerStart");
    auto stop = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted);
    stop.pRangeProfilerObject = range.get();
    try {
      launch_and_wait();
    } catch (...) {
      // A launch that failed or timed out still ends its pass before the profiler goes.
      (void)c.api.range_stop(&stop);
      throw;
    }
    check(c, c.api.range_stop(&stop), "cuptiRangeProfilerStop");
    submitted = stop.isAllPassSubmitted != 0;
    ++passes;
  }
  passes_run += static_cast<int>(passes);
  auto decode = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped);
  decode.pRangeProfilerObject = range.get();
  check(c, c.api.range_decode_data(&decode), "cuptiRangeProfilerDecodeData");
  auto info = GPURUN_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges);
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  check(c, c.api.range_get_counter_data_info(&info), "cuptiRangeProfilerGetCounterDataInfo");
  if (info.numTotalRanges < 1 || decode.numOfRangeDropped > 0)
    throw device_error(fmt::format("--metrics: CUPTI recorded {} range{} of the launch ({} "
                                   "dropped)",
                                   info.numTotalRanges, info.numTotalRanges == 1 ? "" : "s",
                                   decode.numOfRangeDropped));

  std::vector<double> values(names.size());
  auto evaluate = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues);
  evaluate.pHostObject = config.host->get();
  evaluate.pCounterDataImage = counter_data.data();
  evaluate.counterDataImageSize = counter_data.size();
  evaluate.rangeIndex = 0;
  evaluate.ppMetricNames = names.data();
  evaluate.numMetrics = names.size();
  evaluate.pMetricValues = values.data();
  check(c, c.api.host_evaluate_to_gpu_values(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
  return values;
}

} // namespace

CounterReport profile_launch(const ContextState& state, const CounterRequest& request,
                             const std::function<void()>& launch_and_wait) {
  const Cupti& c = usable_cupti();
  // CUPTI's profiler is initialized and torn down per process: one profiling at a time (the
  // workers of bench --devices count their cases one after another).
  const std::lock_guard lock(profiler_mutex());
  state.make_current();
  ProfilerScope profiler(c);
  const Chip chip(c, state);
  const std::vector<Configuration> groups = one_pass_groups(c, chip, request.metrics);

  CounterReport report;
  report.collector = collector(c, chip.name);
  std::map<std::string, double, std::less<>> values;
  for (const Configuration& group : groups) {
    const auto group_values =
        run_configuration(c, state, group, request, launch_and_wait, report.passes);
    for (std::size_t i = 0; i < group.names.size(); ++i)
      values[group.names[i]] = group_values[i];
  }
  const HostObject host(c, chip);
  for (const std::string& metric : request.metrics) {
    MetricInfo base;
    const bool known = host.properties(base_of(metric), base);
    report.values.push_back({metric, values[metric], metric_unit(metric, known ? base.unit : "")});
  }
  return report;
}

void check_counters(const ContextState& state, const std::vector<std::string>& metrics) {
  const Cupti& c = usable_cupti();
  const std::lock_guard lock(profiler_mutex());
  state.make_current();
  ProfilerScope profiler(c);
  const Chip chip(c, state);
  (void)one_pass_groups(c, chip, metrics);
}

MetricCatalog list_metrics(const ContextState& state) {
  const Cupti& c = usable_cupti();
  const std::lock_guard lock(profiler_mutex());
  state.make_current();
  ProfilerScope profiler(c);
  const Chip chip(c, state);
  const HostObject host(c, chip);
  MetricCatalog catalog;
  catalog.collector = collector(c, chip.name);
  for (const CUpti_MetricType type :
       {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    auto base = GPURUN_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics);
    base.pHostObject = host.get();
    base.metricType = type;
    check(c, c.api.host_get_base_metrics(&base), "cuptiProfilerHostGetBaseMetrics");
    for (std::size_t i = 0; i < base.numMetrics; ++i) {
      MetricInfo info;
      const std::string name = base.ppMetricNames[i];
      if (!host.properties(name, info))
        info.name = name;
      catalog.metrics.push_back(std::move(info));
    }
  }
  return catalog;
}

} // namespace gpurun::cuda
