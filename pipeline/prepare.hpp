#pragma once
// The first stage of the run pipeline: everything up to the launch. Source, kernel and signature
// resolved; arguments bound and type-checked before anything is allocated; context created;
// compiled through the cache; loaded; buffers allocated, filled and copied in.
//   prepare → execute (one launch, or timed launches) → collect (copy out, checks, saves)
// `gpurun run`, `threads --run` and the benchmark loop all go through these stages.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "base/host_buffer.hpp"
#include "pipeline/run_request.hpp"
#include "pipeline/target.hpp"

namespace gpurun {

/// A buffer argument on both sides of the copy.
struct BoundBuffer {
  std::string name;
  bool is_input = false;
  HostBuffer host; ///< the contents copied in
  std::unique_ptr<Buffer> device;
  /// Where the buffer lives when its spec places it on another device (`@N`): that device's index
  /// and allocation. Filled there, copied to `device` before the launch and back after it.
  std::optional<int> home_index;
  std::unique_ptr<Buffer> home;
};

/// A module global named by --global, filled before launch and read back after.
struct BoundGlobal {
  std::string name;
  GlobalSymbol symbol;
  HostBuffer host;
};

/// A run ready to launch; shares the context (the caller decides when it goes away: the CLI reports
/// first and leaves without tearing it down; a benchmark suite runs every case in one context).
/// Each stage adds to `outcome`.
struct PreparedRun {
  RunOutcome outcome;
  /// Contexts on the other devices that buffers live on (by device index); declared before
  /// `context` and `buffers` so that those buffers go first.
  std::map<int, std::shared_ptr<Context>> home_contexts;
  std::shared_ptr<Context> context;
  std::unique_ptr<Module> module;
  Function* function = nullptr;
  std::vector<BoundBuffer> buffers;
  std::vector<BoundGlobal> globals;
  ArgPack args;
};

/// Throws gpurun::Error for anything that stops the run before the launch (usage, compile,
/// device), naming the offending field. `device_output` receives the kernel's printf text
/// (empty: standard output).
[[nodiscard]] PreparedRun prepare(const RunRequest& request, const Target& target,
                                  const DeviceOutputSink& device_output = {});

/// The same in a context the caller already has (made by target.device); the request's context
/// settings (memcheck, stats, threads) are then those the context was made with.
[[nodiscard]] PreparedRun prepare_in(const RunRequest& request, const Target& target,
                                     std::shared_ptr<Context> context);

/// The context a run of `request` would make: its backend settings and printf sink.
[[nodiscard]] ContextOptions context_options(const RunRequest& request,
                                             const DeviceOutputSink& device_output = {});

} // namespace gpurun
