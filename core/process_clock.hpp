#pragma once
// Milliseconds since main() started, for the end-to-end timing breakdown.
namespace gpurun {
void mark_process_start();
[[nodiscard]] double ms_since_process_start();
} // namespace gpurun
