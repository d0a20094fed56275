#include "pipeline/execute.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>

#include "base/process_clock.hpp"

namespace gpurun {

namespace {

double timed_launch(PreparedRun& run, std::optional<double> timeout_s) {
  Context& context = *run.context;
  auto timer = context.create_timer();
  timer->start();
  context.launch(*run.function, run.outcome.launch, run.args);
  timer->stop();
  context.synchronize(timeout_s);
  return timer->elapsed_ms();
}

void update_mean(Timings& timings) {
  const auto& samples = timings.kernel_samples_ms;
  timings.kernel_ms = samples.empty() ? 0.0
                                      : std::accumulate(samples.begin(), samples.end(), 0.0) /
                                            static_cast<double>(samples.size());
}

} // namespace

void execute(PreparedRun& run, std::optional<double> timeout_s) {
  // Device printf output follows whatever was printed before the launch.
  std::fflush(stdout);
  run.outcome.timings.kernel_samples_ms.push_back(timed_launch(run, timeout_s));
  run.outcome.stats = run.context->last_launch_stats();
  for (std::string& warning : run.context->last_launch_warnings())
    if (std::find(run.outcome.warnings.begin(), run.outcome.warnings.end(), warning) ==
        run.outcome.warnings.end())
      run.outcome.warnings.push_back(std::move(warning));
  update_mean(run.outcome.timings);
  trace("kernel done");
}

double execute_sample(PreparedRun& run, Timer& timer, const SampleMethod& method) {
  Context& context = *run.context;
  if (method.l2_flush != nullptr) {
    // Alternating values, so that no cache level can keep the flush buffer's lines as written.
    static thread_local std::uint8_t value = 0;
    context.memset(*method.l2_flush, value ^= 0xff);
  }
  // The hold's own limit only matters when the host dies between hold and release.
  constexpr double k_hold_limit_s = 30;
  std::unique_ptr<StreamHold> hold = method.hold ? context.hold_stream(k_hold_limit_s) : nullptr;
  timer.start();
  context.launch_repeated(*run.function, run.outcome.launch, run.args, method.launches);
  timer.stop();
  if (hold)
    hold->release();
  context.synchronize(method.timeout_s);
  return timer.elapsed_ms() / 1000.0 / static_cast<double>(std::max(method.launches, 1));
}

void execute_timed(PreparedRun& run, int count, std::optional<double> timeout_s) {
  for (int i = 0; i < count; ++i)
    run.outcome.timings.kernel_samples_ms.push_back(timed_launch(run, timeout_s));
  update_mean(run.outcome.timings);
}

} // namespace gpurun
