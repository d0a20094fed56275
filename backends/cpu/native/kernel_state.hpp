#pragma once
// What the compiled engine knows of one kernel of a loaded module: its translation (made once)
// and its native code once compiled; shared with a background compile that may outlive a launch.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>

#include "backends/cpu/native/compiled_kernel.hpp"
#include "backends/cpu/native/translate.hpp"

namespace gpurun::native {

/// Which engine runs a launch (DeviceSettings::cpu_engine).
enum class Engine : std::uint8_t { interpret, compiled, automatic };

/// "interpret", "compiled", "auto" (or empty: auto); anything else is Error(usage).
[[nodiscard]] Engine parse_engine(const std::string& text);

class KernelState {
public:
  /// `translate` makes the translation on first use; `kernel` names what it translates (the
  /// PTX, the variables' addresses, the kernel's index), to find its object in the cache without
  /// translating (CompiledKernel::cached_for); empty: always translate.
  explicit KernelState(std::function<Translation()> translate, std::string kernel = {})
      : m_translate(std::move(translate)), m_kernel(std::move(kernel)) {}

  /// The native code for a launch of this kernel, or null (then `why` says why it is
  /// interpreted). `compiled` waits for the compile; `automatic` uses code already compiled (in
  /// this process or the cache) and otherwise starts compiling in the background when the kernel
  /// is worth it (a `big` launch, or its second), interpreting until the result is in the cache.
  ///
  /// `automatic` also compares: for each launch shape (`shape`: grid, block and shared memory),
  /// a launch that ran compiled is followed by one on the interpreter, and once each was timed
  /// (timings()), the faster engine runs that shape from then on — the compiled engine is not
  /// faster on every kernel (docs/compiled-engine.md).
  [[nodiscard]] std::shared_ptr<const CompiledKernel> for_launch(Engine engine, bool big,
                                                                 const std::string& shape,
                                                                 const std::filesystem::path& cache,
                                                                 std::string* why);

  /// How long a launch of `shape` took on the compiled engine or the interpreter.
  class Timings {
  public:
    void record(const std::string& shape, bool compiled, double seconds);
    /// The seconds of the first launch of `shape` on the interpreter and on the compiled engine
    /// (0: none yet).
    [[nodiscard]] std::pair<double, double> of(const std::string& shape) const;

  private:
    mutable std::mutex m_mutex;
    std::map<std::string, std::pair<double, double>> m_seconds; ///< interpreted, compiled (0: not yet)
  };
  /// Where the launch's duration goes once it finished (the context keeps it with the launch).
  [[nodiscard]] const std::shared_ptr<Timings>& timings() const noexcept { return m_timings; }

private:
  std::function<Translation()> m_translate;
  std::string m_kernel;
  bool m_looked_up = false; ///< the cache's index by m_kernel was read
  std::once_flag m_translated;
  Translation m_translation;
  std::mutex m_mutex; ///< launches of one kernel from several contexts
  std::shared_ptr<const CompiledKernel> m_compiled;
  std::string m_failure;           ///< a compile that failed (not tried again)
  bool m_started = false;          ///< a background compile was started
  bool m_looked_in_cache = false;
  std::uint64_t m_launches = 0;
  std::shared_ptr<Timings> m_timings = std::make_shared<Timings>();
};

} // namespace gpurun::native
