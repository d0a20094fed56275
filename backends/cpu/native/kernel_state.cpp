#include "backends/cpu/native/kernel_state.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun::native {

Engine parse_engine(const std::string& text) {
  if (text.empty() || text == "auto")
    return Engine::automatic;
  if (text == "interpret")
    return Engine::interpret;
  if (text == "compiled")
    return Engine::compiled;
  throw usage_error(
      fmt::format("cpu engine '{}': expected interpret, compiled or auto", text));
}

void KernelState::Timings::record(const std::string& shape, bool compiled, double seconds) {
  const std::lock_guard lock(m_mutex);
  auto& [interpreted, native] = m_seconds[shape];
  double& slot = compiled ? native : interpreted;
  if (slot == 0)
    slot = std::max(seconds, 1e-9);
}

std::pair<double, double> KernelState::Timings::of(const std::string& shape) const {
  const std::lock_guard lock(m_mutex);
  auto it = m_seconds.find(shape);
  return it == m_seconds.end() ? std::pair<double, double>{0, 0} : it->second;
}

std::shared_ptr<const CompiledKernel> KernelState::for_launch(Engine engine, bool big,
                                                              const std::string& shape,
                                                              const std::filesystem::path& cache,
                                                              std::string* why) {
  // An object this gpurun made for this kernel before is found without translating it again
  // (translating a tiled matmul takes about 5 ms, a tenth of its whole run).
  bool found = false;
  {
    const std::lock_guard lock(m_mutex);
    if (!m_looked_up && !m_kernel.empty() && engine != Engine::interpret) {
      m_looked_up = true;
      m_compiled = CompiledKernel::cached_for(m_kernel, cache);
    }
    found = m_compiled != nullptr;
  }
  if (!found)
    std::call_once(m_translated, [&] { m_translation = m_translate(); });
  const std::lock_guard lock(m_mutex);
  ++m_launches;
  if (!m_compiled && !m_translation.ok) {
    *why = m_translation.refusal;
    return nullptr;
  }
  // The cache, once at first and then while a background compile runs.
  if (!m_compiled && m_failure.empty() && (!m_looked_in_cache || m_started)) {
    m_looked_in_cache = true;
    m_compiled = CompiledKernel::cached(m_translation.source, cache);
    if (m_compiled)
      CompiledKernel::remember(m_kernel, m_translation.source, cache);
  }
  if (!m_compiled && m_failure.empty() && engine == Engine::compiled) {
    try {
      m_compiled = CompiledKernel::build(m_translation.source, cache);
      CompiledKernel::remember(m_kernel, m_translation.source, cache);
    } catch (const Error& e) {
      m_failure = e.what();
    }
  }
  if (m_compiled) {
    // auto: after a compiled launch of this shape, one on the interpreter; then the faster.
    if (engine == Engine::automatic) {
      const auto [interpreted, compiled] = m_timings->of(shape);
      if (compiled > 0 && interpreted == 0) {
        *why = "timing the interpreter once, to keep the faster engine";
        return nullptr;
      }
      if (compiled > 0 && compiled > interpreted) {
        *why = fmt::format("faster for this launch shape ({:.3g} ms interpreted, {:.3g} ms "
                           "compiled)",
                           interpreted * 1e3, compiled * 1e3);
        return nullptr;
      }
    }
    return m_compiled;
  }
  if (!m_failure.empty()) {
    *why = m_failure;
    return nullptr;
  }
  if (!m_started && (big || m_launches >= 2)) {
    std::string what;
    if (!CompiledKernel::available(&what)) {
      m_failure = fmt::format("no compiler for the compiled engine: {}", what);
      *why = m_failure;
      return nullptr;
    }
    m_started = CompiledKernel::build_in_background(m_translation.source, cache);
  }
  *why = m_started ? "compiling in the background" : "not worth compiling yet";
  return nullptr;
}

} // namespace gpurun::native
