#include "backends/compilers/cuda_compiler.hpp"

#include <fmt/format.h>

#include "backends/compilers/clang.hpp"
#include "backends/compilers/nvrtc.hpp"
#include "base/error.hpp"

namespace gpurun::compilers {

CudaCompiler parse_cuda_compiler(const std::string& text, const std::string& field) {
  if (text.empty() || text == "auto")
    return CudaCompiler::automatic;
  if (text == "nvrtc")
    return CudaCompiler::nvrtc;
  if (text == "clang")
    return CudaCompiler::clang;
  throw usage_error(fmt::format("{} '{}': expected auto, nvrtc or clang", field, text));
}

CompilerInfo nvrtc_info() {
  const auto& probe = nvrtc::probe();
  return {"nvrtc", probe.available, probe.version, probe.location, probe.reason};
}

CompilerInfo clang_info() {
  const auto& probe = clang_cuda::probe();
  return {"clang", probe.available, probe.version, probe.location, probe.reason};
}

CompilerInfo choose(const CompileOptions& options) {
  switch (parse_cuda_compiler(options.compiler, "--compiler")) {
  case CudaCompiler::nvrtc:
    return nvrtc_info();
  case CudaCompiler::clang:
    return clang_info();
  case CudaCompiler::automatic:
    break;
  }
  auto nv = nvrtc_info();
  if (nv.available)
    return nv;
  auto cl = clang_info();
  if (cl.available)
    return cl;
  return {"none", false, "", "", fmt::format("no CUDA compiler: {}; {}", nv.reason, cl.reason)};
}

CompileResult compile_cuda(const KernelSource& source, const CompileOptions& options,
                           const std::string& target) {
  const auto chosen = choose(options);
  if (!chosen.available)
    throw unavailable_error(fmt::format("cannot compile {}: {}",
                                        source.path.empty() ? std::string("the kernel")
                                                            : source.path.filename().string(),
                                        chosen.reason));
  if (chosen.name == "clang")
    return clang_cuda::compile(source, options, target);
  return nvrtc::compile(source, options, target);
}

std::string compiler_id(const CompileOptions& options) {
  const auto chosen = choose(options);
  if (!chosen.available)
    return "unavailable";
  return chosen.name + " " + chosen.version;
}

} // namespace gpurun::compilers
