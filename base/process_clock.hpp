#pragma once
// Milliseconds since main() started, for the end-to-end timing breakdown, and a phase trace
// (GPURUN_TRACE=1 prints "gpurun trace: 12.3 ms what" to stderr at each phase).
namespace gpurun {
void mark_process_start();
[[nodiscard]] double ms_since_process_start();
/// Prints a trace line when GPURUN_TRACE is set; costs one branch otherwise.
void trace(const char* what);
} // namespace gpurun
