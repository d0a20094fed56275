#include "core/process_clock.hpp"

#include <chrono>

namespace gpurun {
namespace {
std::chrono::steady_clock::time_point g_start = std::chrono::steady_clock::now();
}
void mark_process_start() { g_start = std::chrono::steady_clock::now(); }
double ms_since_process_start() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_start)
      .count();
}
} // namespace gpurun
