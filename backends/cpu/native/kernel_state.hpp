#pragma once
// What the compiled engine knows of one kernel of a loaded module: its translation (made once)
// and its native code once compiled; shared with a background compile that may outlive a launch.
#include <cstdint>
#include <filesystem>
#include <functional>
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
  /// `translate` makes the translation on first use.
  explicit KernelState(std::function<Translation()> translate) : m_translate(std::move(translate)) {}

  /// The native code for a launch of this kernel, or null (then `why` says why it is
  /// interpreted). `compiled` waits for the compile; `automatic` uses code already compiled (in
  /// this process or the cache) and otherwise starts compiling in the background when the kernel
  /// is worth it (a `big` launch, or its second), interpreting until the result is in the cache.
  [[nodiscard]] std::shared_ptr<const CompiledKernel> for_launch(Engine engine, bool big,
                                                                 const std::filesystem::path& cache,
                                                                 std::string* why);

private:
  std::function<Translation()> m_translate;
  std::once_flag m_translated;
  Translation m_translation;
  std::mutex m_mutex; ///< launches of one kernel from several contexts
  std::shared_ptr<const CompiledKernel> m_compiled;
  std::string m_failure;           ///< a compile that failed (not tried again)
  bool m_started = false;          ///< a background compile was started
  bool m_looked_in_cache = false;
  std::uint64_t m_launches = 0;
};

} // namespace gpurun::native
