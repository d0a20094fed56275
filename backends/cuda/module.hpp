#pragma once
#include "backends/cuda/driver_types.hpp"

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"
#include "backends/kit/cubin_params.hpp"
#include "backends/kit/ptx_entries.hpp"

namespace gpurun::cuda {

/// A kernel of a loaded module.
class CudaFunction final : public Function {
public:
  /// `ptx_params` is the layout read from the module's PTX (std::nullopt for a cubin); the
  /// driver's cuFuncGetParamInfo is asked when there is none.
  CudaFunction(std::shared_ptr<ContextState> state, CUfunction handle, std::string name,
               std::optional<std::vector<ParamLayout>> ptx_params);

  [[nodiscard]] const std::string& name() const override { return m_name; }
  [[nodiscard]] const std::vector<ParamLayout>& params() const override { return m_params; }
  [[nodiscard]] FunctionAttributes attributes() const override;

  [[nodiscard]] CUfunction handle() const { return m_handle; }
  /// Whether the parameter layout is known (false: an old driver and a cubin module).
  [[nodiscard]] bool params_known() const { return m_params_known; }
  /// Raises the dynamic shared memory limit of this kernel to `bytes` when the launch needs
  /// more than its current limit (by default 48 KiB less the kernel's static shared memory).
  void reserve_dynamic_shared(std::size_t bytes);

private:
  std::shared_ptr<ContextState> m_state;
  CUfunction m_handle;
  std::string m_name;
  std::vector<ParamLayout> m_params;
  bool m_params_known = false;
  std::optional<std::size_t> m_dynamic_shared_limit; ///< read from the driver when first needed
};

/// A module loaded with cuModuleLoadDataEx; unloaded in the destructor.
class CudaModule final : public Module {
public:
  /// `ptx` is the module's PTX text when it was loaded from PTX (empty for a cubin).
  /// `ptx`: the module's PTX text, or empty; `cubin`: its cubin, or empty (a fatbin, PTX). Either
  /// gives the kernels' parameter layouts; without them the driver is asked.
  /// `calls_assert`: its code calls __assertfail (ContextState::assert_modules).
  CudaModule(std::shared_ptr<ContextState> state, CUmodule handle, std::string_view ptx,
             std::span<const std::byte> cubin, bool calls_assert);
  ~CudaModule() override;
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

  [[nodiscard]] Function& function(const std::string& name) override;
  [[nodiscard]] std::vector<std::string> kernel_names() const override;
  [[nodiscard]] std::optional<GlobalSymbol> global(const std::string& name) override;

private:
  std::shared_ptr<ContextState> m_state;
  CUmodule m_handle;
  std::optional<std::vector<kit::PtxEntry>> m_ptx_entries;
  std::map<std::string, std::vector<kit::CubinParam>> m_cubin_params;
  std::map<std::string, std::unique_ptr<CudaFunction>> m_functions;
  bool m_calls_assert = false;
};

} // namespace gpurun::cuda
