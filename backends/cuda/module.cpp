#include "backends/cuda/module.hpp"

#include <algorithm>

#include "backends/cuda/error.hpp"
#include "backends/kit/device_output.hpp"
#include "base/suggest.hpp"

namespace gpurun::cuda {
namespace {

// cuFuncGetParamInfo and a cubin's parameter records give offset and size only. The alignment is
// the largest power of two (up to 16, the largest a kernel parameter has) that divides both: exact
// for scalars, vectors and pointers, and a lower bound for structs.
std::size_t inferred_align(std::size_t offset, std::size_t size) {
  std::size_t align = 16;
  while (align > 1 && (size % align != 0 || offset % align != 0))
    align /= 2;
  return align;
}

std::optional<std::vector<ParamLayout>> driver_params(const DriverApi& api, CUfunction f) {
  if (api.func_get_param_info == nullptr)
    return std::nullopt;
  // Asking past the last parameter is how the count is found: an API error that compute-sanitizer
  // reports, so this is the last resort (after the module's PTX or cubin).
  std::vector<ParamLayout> params;
  for (std::size_t index = 0;; ++index) {
    std::size_t offset = 0;
    std::size_t size = 0;
    const CUresult r = api.func_get_param_info(f, index, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE)
      break; // past the last parameter
    if (r != CUDA_SUCCESS)
      return std::nullopt;
    params.push_back(ParamLayout{offset, size, inferred_align(offset, size), {}});
  }
  return params;
}

} // namespace

CudaFunction::CudaFunction(std::shared_ptr<ContextState> state, CUfunction handle, std::string name,
                           std::optional<std::vector<ParamLayout>> ptx_params)
    : m_state(std::move(state)), m_handle(handle), m_name(std::move(name)) {
  if (ptx_params) {
    m_params = std::move(*ptx_params);
    m_params_known = true;
  } else if (auto from_driver = driver_params(m_state->api, m_handle)) {
    m_params = std::move(*from_driver);
    m_params_known = true;
  }
}

FunctionAttributes CudaFunction::attributes() const {
  m_state->make_current();
  const auto& api = m_state->api;
  auto get = [&](CUfunction_attribute attribute, const char* what) {
    int value = 0;
    GPURUN_CU_CHECK_MSG("cuFuncGetAttribute", api.func_get_attribute(&value, attribute, m_handle),
                        ExitCode::device, "reading {} of kernel '{}'", what, m_name);
    return value;
  };
  FunctionAttributes a;
  a.registers = get(CU_FUNC_ATTRIBUTE_NUM_REGS, "registers");
  a.static_shared_bytes =
      static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "shared size"));
  a.local_bytes = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "local size"));
  a.const_bytes = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, "const size"));
  a.max_threads_per_block = get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads");
  return a;
}

void CudaFunction::reserve_dynamic_shared(std::size_t bytes) {
  m_state->make_current();
  if (!m_dynamic_shared_limit) {
    int value = 0;
    GPURUN_CU_CHECK_MSG("cuFuncGetAttribute",
                        m_state->api.func_get_attribute(
                            &value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, m_handle),
                        ExitCode::device, "reading the dynamic shared memory limit of kernel '{}'",
                        m_name);
    m_dynamic_shared_limit = static_cast<std::size_t>(std::max(value, 0));
  }
  if (bytes <= *m_dynamic_shared_limit)
    return;
  GPURUN_CU_CHECK_MSG(
      "cuFuncSetAttribute",
      m_state->api.func_set_attribute(m_handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      static_cast<int>(bytes)),
      ExitCode::device, "kernel '{}': {} bytes of dynamic shared memory", m_name, bytes);
  m_dynamic_shared_limit = bytes;
}

CudaModule::CudaModule(std::shared_ptr<ContextState> state, CUmodule handle, std::string_view ptx,
                       std::span<const std::byte> cubin, bool calls_assert)
    : m_state(std::move(state)), m_handle(handle), m_calls_assert(calls_assert) {
  if (m_calls_assert)
    ++m_state->assert_modules;
  if (!cubin.empty()) {
    try {
      m_cubin_params = kit::cubin_params(cubin);
    } catch (const kit::CubinError&) {
      // Loaded by the driver, so valid; the driver is asked for what this reader cannot find.
    }
  }
  if (ptx.empty())
    return;
  try {
    m_ptx_entries = kit::parse_ptx_entries(ptx);
  } catch (const kit::PtxSyntaxError&) {
    // The driver has loaded this PTX, so it is valid; where our reader cannot follow it, the
    // driver's own answers (cuFuncGetParamInfo, cuModuleEnumerateFunctions) are used instead.
  }
}

CudaModule::~CudaModule() {
  m_functions.clear();
  if (!m_state->abandoned) {
    // Unloading flushes device printf.
    kit::DeviceOutputScope output(m_state->device_output, kit::CaptureFailure::let_through);
    m_state->make_current_quietly();
    (void)m_state->api.module_unload(m_handle);
  }
  if (m_calls_assert)
    --m_state->assert_modules;
}

Function& CudaModule::function(const std::string& name) {
  if (auto found = m_functions.find(name); found != m_functions.end())
    return *found->second;
  m_state->make_current();
  CUfunction f = nullptr;
  const CUresult r = m_state->api.module_get_function(&f, m_handle, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    const auto names = kernel_names();
    throw usage_error(fmt::format(
        "kernel '{}' not found in module{} (kernels: {})", name, did_you_mean(name, names),
        names.empty() ? std::string("none listed") : fmt::format("{}", fmt::join(names, ", "))));
  }
  if (r != CUDA_SUCCESS)
    throw_error(r, "cuModuleGetFunction", ExitCode::device,
                fmt::format("looking up kernel '{}'", name), __FILE__, __LINE__);
  std::optional<std::vector<ParamLayout>> ptx_params;
  if (m_ptx_entries)
    for (const auto& entry : *m_ptx_entries)
      if (entry.name == name) {
        ptx_params.emplace();
        for (const auto& p : entry.params)
          ptx_params->push_back(ParamLayout{p.offset, p.size, p.align, {}});
      }
  if (auto in_cubin = m_cubin_params.find(name); !ptx_params && in_cubin != m_cubin_params.end()) {
    ptx_params.emplace();
    for (const auto& p : in_cubin->second)
      ptx_params->push_back(ParamLayout{p.offset, p.size, inferred_align(p.offset, p.size), {}});
  }
  auto fn = std::make_unique<CudaFunction>(m_state, f, name, std::move(ptx_params));
  auto& ref = *fn;
  m_functions.emplace(name, std::move(fn));
  return ref;
}

std::vector<std::string> CudaModule::kernel_names() const {
  std::vector<std::string> names;
  if (m_ptx_entries) {
    for (const auto& entry : *m_ptx_entries)
      names.push_back(entry.name);
    return names;
  }
  const auto& api = m_state->api;
  if (api.module_get_function_count == nullptr || api.module_enumerate_functions == nullptr ||
      api.func_get_name == nullptr)
    return names;
  m_state->make_current();
  unsigned count = 0;
  if (api.module_get_function_count(&count, m_handle) != CUDA_SUCCESS)
    return names;
  std::vector<CUfunction> functions(count);
  if (count == 0 ||
      api.module_enumerate_functions(functions.data(), count, m_handle) != CUDA_SUCCESS)
    return names;
  for (CUfunction f : functions) {
    const char* name = nullptr;
    if (api.func_get_name(&name, f) == CUDA_SUCCESS && name != nullptr)
      names.emplace_back(name);
  }
  // The driver's order is unspecified; messages that list kernels should not vary run to run.
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<GlobalSymbol> CudaModule::global(const std::string& name) {
  m_state->make_current();
  CUdeviceptr address = 0;
  std::size_t size = 0;
  const CUresult r = m_state->api.module_get_global(&address, &size, m_handle, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    return std::nullopt;
  if (r != CUDA_SUCCESS)
    throw_error(r, "cuModuleGetGlobal", ExitCode::device,
                fmt::format("looking up global '{}'", name), __FILE__, __LINE__);
  return GlobalSymbol{static_cast<DevicePtr>(address), size};
}

} // namespace gpurun::cuda
