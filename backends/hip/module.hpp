#pragma once
#include "backends/hip/rocm_types.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/hip/context_state.hpp"
#include "backends/kit/amdgpu_code_object.hpp"

namespace gpurun::hip {

/// The explicit parameters of a kernel as its code object's metadata lays them out (hidden
/// arguments, which the runtime fills, left out).
[[nodiscard]] std::vector<ParamLayout> explicit_params(const kit::AmdgpuKernel& kernel);

/// Registers, LDS and scratch of a kernel from its metadata (registers: VGPRs).
[[nodiscard]] FunctionAttributes attributes_of(const kit::AmdgpuKernel& kernel);

/// A kernel of a loaded module; its layout and resources come from the code object.
class HipFunction final : public Function {
public:
  HipFunction(hipFunction_t handle, const kit::AmdgpuKernel& kernel);
  [[nodiscard]] const std::string& name() const override { return m_name; }
  [[nodiscard]] const std::vector<ParamLayout>& params() const override { return m_params; }
  [[nodiscard]] FunctionAttributes attributes() const override { return m_attributes; }
  [[nodiscard]] hipFunction_t handle() const { return m_handle; }

private:
  hipFunction_t m_handle;
  std::string m_name;
  std::vector<ParamLayout> m_params;
  FunctionAttributes m_attributes;
};

/// A code object loaded with hipModuleLoadData; unloaded in the destructor.
class HipModule final : public Module {
public:
  HipModule(std::shared_ptr<ContextState> state, hipModule_t handle, kit::AmdgpuCodeObject code);
  ~HipModule() override;
  HipModule(const HipModule&) = delete;
  HipModule& operator=(const HipModule&) = delete;

  [[nodiscard]] Function& function(const std::string& name) override;
  [[nodiscard]] std::vector<std::string> kernel_names() const override;
  [[nodiscard]] std::optional<GlobalSymbol> global(const std::string& name) override;

private:
  std::shared_ptr<ContextState> m_state;
  hipModule_t m_handle;
  kit::AmdgpuCodeObject m_code;
  std::map<std::string, std::unique_ptr<HipFunction>> m_functions;
};

} // namespace gpurun::hip
