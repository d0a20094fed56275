#include "backends/cpu/context_settings.hpp"

#include <cstdlib>
#include <string>

namespace gpurun::cpu {

ContextSettings ContextSettings::from(const ContextOptions& options) {
  const DeviceSettings& given = options.settings;
  ContextSettings s;
  s.memcheck = given.memcheck;
  s.stats = given.stats;
  s.threads = given.host_threads > 0 ? given.host_threads : 0;
  s.printf_buffer = given.printf_buffer.value_or(k_default_printf_buffer);
  s.racecheck = given.racecheck;
  s.initcheck = given.initcheck;
  s.synccheck = given.synccheck;
  s.leakcheck = given.leak_check;
  s.heap_bytes = given.heap_bytes.value_or(s.heap_bytes);
  s.max_findings = given.max_findings.value_or(s.max_findings);
  // --cpu-engine, else $GPURUN_CPU_ENGINE (a machine's or a CI job's default), else auto.
  const char* from_environment = std::getenv("GPURUN_CPU_ENGINE");
  s.engine = native::parse_engine(!given.cpu_engine.empty() || from_environment == nullptr
                                      ? given.cpu_engine
                                      : std::string(from_environment));
  return s;
}

} // namespace gpurun::cpu
