#pragma once
// A platform that runs kernels on the host's own threads (PoCL) has no memory protection between
// a kernel and gpurun: an access far outside a buffer is a SIGSEGV in the process. While a kernel
// is in flight on such a platform, that signal ends gpurun with one line naming the kernel and exit
// code 4 (a device fault), as a GPU's fault would, instead of a crash.
#include <string_view>

namespace gpurun::opencl {

/// Installs the SIGSEGV/SIGBUS handler (once) and names `kernel` as the one in flight.
void guard_kernel(std::string_view kernel);
/// No kernel is in flight any more: the signals are gpurun's own crashes again.
void unguard_kernel() noexcept;

} // namespace gpurun::opencl
