#pragma once
// The run pipeline: one backend-agnostic function that reads top to bottom (DESIGN.md §4).
#include <functional>
#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "core/run_request.hpp"

namespace gpurun {

/// Where the pipeline runs: the selected backend's device. run_kernel creates the context once
/// the arguments have been checked and leaves it here, so that the caller decides when it goes
/// away (the CLI reports first and then leaves without tearing it down).
struct RunTarget {
  std::string backend_name;
  int device_index = 0;
  Device* device = nullptr;
  std::unique_ptr<Context> context;
  /// Where the kernel's device printf goes (--json keeps it for the report); empty: stdout.
  DeviceOutputSink device_output;
};

/// Called before the kernel is launched (after compile, binding and copies): the human reporter
/// prints the launch line there so device printf output follows it.
using BeforeLaunch = std::function<void(const RunOutcome&)>;

/// load source → detect language → compile (cache) → resolve kernel and signature → bind and
/// type-check args → allocate and fill → copy in → launch (timed, --repeat) → synchronize →
/// copy out → check expectations → save. Throws gpurun::Error for anything that stops the run;
/// a failed check is a value (outcome.status = "check_failed").
[[nodiscard]] RunOutcome run_kernel(const RunRequest& request, RunTarget& target,
                                    const BeforeLaunch& before_launch = {});

} // namespace gpurun
