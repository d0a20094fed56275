#include "base/process_clock.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace gpurun {
namespace {
std::chrono::steady_clock::time_point g_start = std::chrono::steady_clock::now();
const bool g_trace = std::getenv("GPURUN_TRACE") != nullptr;
} // namespace

void mark_process_start() {
  g_start = std::chrono::steady_clock::now();
}

double ms_since_process_start() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_start)
      .count();
}

void trace(const char* what) {
  if (g_trace)
    std::fprintf(stderr, "gpurun trace: %8.2f ms %s\n", ms_since_process_start(), what);
}
} // namespace gpurun
