#include "backends/compilers/cuda_compiler.hpp"

#include <array>
#include <fmt/format.h>
#include <mutex>
#include <vector>

#include "backends/compilers/clang.hpp"
#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/device_headers.hpp"
#include "backends/compilers/nvcc.hpp"
#include "backends/compilers/nvrtc_api.hpp"
#include "backends/compilers/ptxas_info.hpp"
#include "backends/compilers/whole_file.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "base/detail/sha256.hpp"
#include "base/error.hpp"

namespace gpurun::compilers {
namespace {

constexpr std::array<std::string_view, 4> names = {"auto", "nvrtc", "clang", "nvcc"};

// Why NVRTC failed on its own in this process (compile_cuda): the automatic choice passes over it
// from then on, so that later compiles (and their cache keys) go to clang directly.
std::mutex nvrtc_failure_mutex;
std::string nvrtc_failure;

// A compiler the automatic choice may take, with why it was found but cannot be used (empty when
// it is simply absent, which is no news).
struct Candidate {
  CompilerInfo info;
  std::string unusable;
};

Candidate nvrtc_candidate() {
  Candidate c{nvrtc_info(), {}};
  if (!c.info.available) {
    if (const auto& unusable = nvrtc::library().unusable; !unusable.empty())
      c.unusable = "nvrtc: " + unusable;
    return c;
  }
  const std::lock_guard lock(nvrtc_failure_mutex);
  if (!nvrtc_failure.empty()) {
    c.unusable = fmt::format("nvrtc {}: {}", c.info.version, nvrtc_failure);
    c.info.available = false;
    c.info.reason = c.unusable;
  }
  return c;
}

Candidate clang_candidate() {
  return {clang_info(), {}};
}

// What --compiler auto tries, in order; the first that is available compiles.
constexpr std::array automatic_order = {nvrtc_candidate, clang_candidate};

CompilerInfo choose_automatically() {
  std::vector<std::string> reasons;
  std::vector<std::string> passed_over;
  for (const auto next : automatic_order) {
    auto candidate = next();
    if (candidate.info.available) {
      candidate.info.passed_over = fmt::format("{}", fmt::join(passed_over, "; "));
      return candidate.info;
    }
    reasons.push_back(candidate.info.reason);
    if (!candidate.unusable.empty())
      passed_over.push_back(std::move(candidate.unusable));
  }
  return {"none", false, "", "", fmt::format("no CUDA compiler: {}", fmt::join(reasons, "; ")),
          {},     {}};
}

CompileResult compile_with(const CompilerInfo& chosen, const KernelSource& source,
                           const CompileOptions& options, const std::string& target) {
  // nvcc reads the whole file as the user's build does. The device-only compilers get its device
  // side: host code and host-library headers left out (whole_file.hpp).
  if (chosen.name == "nvcc")
    return nvcc::compile(source, options, target);
  if (chosen.name == "clang")
    return compile_device_side(source, options, clang_header_policy(),
                               [&](const KernelSource& s, const CompileOptions& o) {
                                 return clang_cuda::compile(s, o, target);
                               });
  return compile_device_side(
      source, options, nvrtc_header_policy(),
      [&](const KernelSource& s, const CompileOptions& o) { return nvrtc::compile(s, o, target); });
}

// NVRTC failing on its own rather than on the source: its builtins library would not load or
// was not the one it expects, or an internal error.
bool nvrtc_failed_on_its_own(const BackendError& e) {
  return e.backend() == "nvrtc" && e.call() == "nvrtcCompileProgram" &&
         (e.native_code() == nvrtc::NVRTC_ERROR_BUILTIN_OPERATION_FAILURE ||
          e.native_code() == nvrtc::NVRTC_ERROR_INTERNAL_ERROR);
}

CompileResult noted(CompileResult result, const std::string& passed_over) {
  if (!passed_over.empty())
    result.compiler_version += ", in place of " + passed_over;
  return result;
}

} // namespace

std::span<const std::string_view> compiler_names() {
  return names;
}

CudaCompiler parse_cuda_compiler(const std::string& text, const std::string& field) {
  if (text.empty() || text == "auto")
    return CudaCompiler::automatic;
  if (text == "nvrtc")
    return CudaCompiler::nvrtc;
  if (text == "clang")
    return CudaCompiler::clang;
  if (text == "nvcc")
    return CudaCompiler::nvcc;
  throw usage_error(fmt::format("{} '{}': expected auto, nvrtc, clang or nvcc", field, text));
}

CompilerInfo nvrtc_info() {
  const auto& found = nvrtc::probed();
  const auto& probe = found.availability;
  return {"nvrtc", probe.available, probe.version, probe.location, probe.reason, found.builtins, {}};
}

CompilerInfo clang_info() {
  const auto& probe = clang_cuda::probe();
  return {"clang", probe.available, probe.version, probe.location, probe.reason, {}, {}};
}

CompilerInfo nvcc_info() {
  const auto& probe = nvcc::probe();
  return {"nvcc", probe.available, probe.version, probe.location, probe.reason, {}, {}};
}

CompilerInfo choose(const CompileOptions& options) {
  switch (parse_cuda_compiler(options.compiler, "--compiler")) {
  case CudaCompiler::nvrtc:
    return nvrtc_info();
  case CudaCompiler::clang:
    return clang_info();
  case CudaCompiler::nvcc:
    return nvcc_info();
  case CudaCompiler::automatic:
    break;
  }
  return choose_automatically();
}

CompileResult compile_cuda(const KernelSource& source, const CompileOptions& options,
                           const std::string& target) {
  const auto chosen = choose(options);
  if (!chosen.available)
    throw unavailable_error(fmt::format("cannot compile {}: {}",
                                        source.path.empty() ? std::string("the kernel")
                                                            : source.path.filename().string(),
                                        chosen.reason));
  const bool automatic =
      parse_cuda_compiler(options.compiler, "--compiler") == CudaCompiler::automatic;
  try {
    CompileResult result = noted(compile_with(chosen, source, options, target), chosen.passed_over);
    // A whole file whose device side NVRTC or clang could not compile: nvcc, where there is one,
    // reads it as the user's own build does.
    if (automatic && !result.ok && !result.source_summary.empty() && chosen.name != "nvcc") {
      const auto nvcc = nvcc_info();
      if (nvcc.available) {
        CompileResult whole = compile_with(nvcc, source, options, target);
        if (whole.ok) {
          whole.compiler_version += fmt::format(", in place of {}: its device side of the file "
                                                "did not compile",
                                                result.compiler_version);
          return whole;
        }
      }
    }
    return result;
  } catch (const BackendError& e) {
    if (!automatic || chosen.name != "nvrtc" || !nvrtc_failed_on_its_own(e))
      throw;
    {
      const std::lock_guard lock(nvrtc_failure_mutex);
      nvrtc_failure = e.what();
    }
    const auto fallback = choose(options);
    if (!fallback.available)
      throw;
    // clang writes PTX only: for the architecture of the cubin that was asked for.
    const bool ptx_only = fallback.name == "clang" && target.starts_with("sm_");
    return noted(
        compile_with(fallback, source, options, ptx_only ? arch::virtual_arch(target) : target),
        fallback.passed_over);
  }
}

std::string compiler_id(const CompileOptions& options) {
  const auto chosen = choose(options);
  if (!chosen.available)
    return "unavailable";
  // The headers gpurun hands the compiler are part of what it compiles: a build with other
  // headers must not reuse PTX made with these.
  static const std::string headers = [] {
    std::string all;
    for (const auto& h : nvrtc::compat_headers())
      all += std::string(h.name) + '\0' + h.text + '\0';
    for (const auto& h : clang_layer_headers())
      all += std::string(h.name) + '\0' + h.text + '\0';
    return detail::sha256_hex(all).substr(0, 12);
  }();
  return fmt::format("{} {} headers {}", chosen.name, chosen.version, headers);
}

std::vector<CompilerInfo> cuda_compilers() {
  return {nvrtc_info(), clang_info(), nvcc_info()};
}

bool is_cuda_target(const std::string& target) {
  return arch::parse_cuda_arch(target).has_value();
}

std::optional<ResourceReport> ptxas_resources(const KernelSource& source, CompileOptions options) {
  if (choose(options).name == "clang")
    return std::nullopt;
  const std::string arch =
      arch::parse_cuda_arch(options.arch) ? arch::real_arch(options.arch) : "sm_90";
  options.extra.push_back("--ptxas-options=-v");
  const CompileResult cubin = compile_cuda(source, options, arch);
  if (!cubin.ok)
    throw CompileError(fmt::format("{}: compile failed", source.path.string()), cubin.log);
  ResourceReport report;
  report.from_ptxas = true;
  report.ptxas = parse_ptxas_info(cubin.log);
  // A log that is not ptxas's report (a compiler that printed something else) is shown rather
  // than read as "no kernels".
  if (report.ptxas.empty() && cubin.log.find("ptxas") == std::string::npos &&
      cubin.log.find_first_not_of(" \t\r\n") != std::string::npos)
    throw CompileError(fmt::format("{}: the compiler's log for {} has no ptxas report of a "
                                   "kernel ({})",
                                   source.path.string(), arch, cubin.compiler_version),
                       cubin.log);
  report.measured_by = fmt::format("ptxas for {}, {}", arch, cubin.compiler_version);
  return report;
}

} // namespace gpurun::compilers
