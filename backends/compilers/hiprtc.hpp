#pragma once
// HIP source → an AMDGPU code object for one gfx target, through hipRTC, opened with dlopen
// wherever it is installed (hiprtc_api.hpp). Needs no GPU: the target is named (--offload-arch),
// so `gpurun compile k.hip --arch gfx90a` works anywhere hipRTC is installed. The hip backend
// compiles with it.
#include <string>

#include "backends/backend.hpp"
#include "backends/compilers/availability.hpp"
#include "backends/kit/amdgpu_code_object.hpp"

namespace gpurun::hiprtc {

/// hipRTC as found at run time (for `gpurun devices` and the compile cache key); loads it once.
[[nodiscard]] compilers::Availability probe();

/// Throws Error(usage) naming --arch unless `target` is a gfx processor, optionally with
/// feature flags: "gfx90a", "gfx90a:xnack-", "gfx942:sramecc+:xnack-".
void validate_target(const std::string& target);

/// Compiles HIP source for `target`. Throws Error(unavailable) without hipRTC; a compile error,
/// and a target this hipRTC cannot compile for, come back in the result (ok=false, the log).
/// The binary's format is "hsaco" (an ELF code object).
[[nodiscard]] CompileResult compile(const KernelSource& source, const CompileOptions& options,
                                    const std::string& target);

/// The code object a compile made (binary_format "hsaco"); Error(compile) naming the target when
/// it cannot be read.
[[nodiscard]] kit::AmdgpuCodeObject read_code_object(const CompileResult& compiled);

/// A hipRTC log with the temporary path comgr compiled the source under replaced by `name`, the
/// source's name as the user gave it.
[[nodiscard]] std::string with_source_name(const std::string& log, const std::string& name);

} // namespace gpurun::hiprtc
