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

std::shared_ptr<const CompiledKernel> KernelState::for_launch(Engine engine, bool big,
                                                              const std::filesystem::path& cache,
                                                              std::string* why) {
  std::call_once(m_translated, [&] { m_translation = m_translate(); });
  const std::lock_guard lock(m_mutex);
  ++m_launches;
  if (!m_translation.ok) {
    *why = m_translation.refusal;
    return nullptr;
  }
  if (m_compiled)
    return m_compiled;
  if (!m_failure.empty()) {
    *why = m_failure;
    return nullptr;
  }
  // The cache, once at first and then while a background compile runs.
  if (!m_looked_in_cache || m_started) {
    m_looked_in_cache = true;
    if ((m_compiled = CompiledKernel::cached(m_translation.source, cache)))
      return m_compiled;
  }
  if (engine == Engine::compiled) {
    try {
      m_compiled = CompiledKernel::build(m_translation.source, cache);
      return m_compiled;
    } catch (const Error& e) {
      m_failure = e.what();
      *why = m_failure;
      return nullptr;
    }
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
