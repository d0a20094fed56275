#pragma once
// OpenCL C programs: built from source with clBuildProgram, kept as the platform's binary where it
// gives one (CL_PROGRAM_BINARIES) so that the compile cache can store it, and loaded back.
//
// What compile() hands the cache is a small container: a header naming the build options and
// whether the payload is the platform's binary or, where the platform gives none, the source
// itself (built again at load).
#include "backends/opencl/api.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/opencl/context_state.hpp"

namespace gpurun::opencl {

/// clBuildProgram's options for `options`: -cl-kernel-arg-info (argument names and types),
/// -D, -I (the source's own folder first), -cl-std= from --std ("CL3.0"), then --opt's words.
/// Throws Error(usage) for a --std that is not an OpenCL C version and for --arch.
[[nodiscard]] std::string build_options(const KernelSource& source, const CompileOptions& options);

/// The build log with the platform's name for the source ("<source>", "<kernel>", "input.cl")
/// replaced by the file's path, so that errors read FILE:LINE:COL.
[[nodiscard]] std::string readable_log(std::string log, const std::string& path);

/// Builds `source` for the state's device; a build error comes back in the result.
[[nodiscard]] CompileResult compile_program(ContextState& state, const KernelSource& source,
                                            const CompileOptions& options);

/// "PoCL 3.1 (OpenCL 3.0 …) on pthread-… (driver 3.1)": what the compile cache keys on.
[[nodiscard]] std::string compiler_id(const ContextState& state);

/// A parameter's bytes from an OpenCL C type name: 4 for "float", 16 for "float4" and "float3",
/// 8 for any pointer; 0 for a type of unknown size (a struct).
[[nodiscard]] std::size_t type_size(std::string_view type_name);

class OpenclFunction;

/// A built program and its kernels (made on first use).
class OpenclModule final : public Module {
public:
  OpenclModule(std::shared_ptr<ContextState> state, cl_program program);
  ~OpenclModule() override;
  OpenclModule(const OpenclModule&) = delete;
  OpenclModule& operator=(const OpenclModule&) = delete;

  [[nodiscard]] Function& function(const std::string& name) override;
  [[nodiscard]] std::vector<std::string> kernel_names() const override;
  /// OpenCL 1.2 has no way to reach a program-scope variable from the host: always nullopt.
  [[nodiscard]] std::optional<GlobalSymbol> global(const std::string& name) override;

private:
  std::shared_ptr<ContextState> m_state;
  cl_program m_program;
  std::map<std::string, std::unique_ptr<OpenclFunction>> m_functions;
};

/// Loads what compile_program made (from the cache or just now).
[[nodiscard]] std::unique_ptr<Module> load_program(const std::shared_ptr<ContextState>& state,
                                                   const CompileResult& compiled);

/// One kernel: its cl_kernel and its parameters from clGetKernelArgInfo.
class OpenclFunction final : public Function {
public:
  OpenclFunction(std::shared_ptr<ContextState> state, cl_kernel kernel, std::string name);
  ~OpenclFunction() override;
  OpenclFunction(const OpenclFunction&) = delete;
  OpenclFunction& operator=(const OpenclFunction&) = delete;

  [[nodiscard]] const std::string& name() const override { return m_name; }
  [[nodiscard]] const std::vector<ParamLayout>& params() const override { return m_params; }
  [[nodiscard]] FunctionAttributes attributes() const override;
  [[nodiscard]] cl_kernel kernel() const { return m_kernel; }
  /// Whether parameter `i` is a `__local` pointer (it takes a size, no buffer).
  [[nodiscard]] bool is_local(std::size_t i) const { return m_local.at(i); }

private:
  std::shared_ptr<ContextState> m_state;
  cl_kernel m_kernel;
  std::string m_name;
  std::vector<ParamLayout> m_params;
  std::vector<bool> m_local;
};

} // namespace gpurun::opencl
