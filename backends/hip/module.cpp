#include "backends/hip/module.hpp"

#include <algorithm>

#include "backends/hip/error.hpp"
#include "backends/kit/device_output.hpp"
#include "base/suggest.hpp"

namespace gpurun::hip {
namespace {

// The metadata gives offset and size; the alignment is the largest power of two (up to 16) that
// divides both, exact for scalars, vectors and pointers.
std::size_t inferred_align(std::size_t offset, std::size_t size) {
  std::size_t align = 16;
  while (align > 1 && (size % align != 0 || offset % align != 0))
    align /= 2;
  return align;
}

} // namespace

std::vector<ParamLayout> explicit_params(const kit::AmdgpuKernel& kernel) {
  std::vector<ParamLayout> params;
  for (const auto& arg : kernel.args)
    if (!arg.hidden())
      params.push_back(ParamLayout{arg.offset, arg.size, inferred_align(arg.offset, arg.size), {}});
  return params;
}

FunctionAttributes attributes_of(const kit::AmdgpuKernel& kernel) {
  FunctionAttributes a;
  a.registers = kernel.vgprs;
  a.static_shared_bytes = kernel.lds_bytes;
  a.local_bytes = kernel.scratch_bytes;
  a.const_bytes = kernel.kernarg_bytes;
  a.max_threads_per_block = kernel.max_flat_workgroup_size;
  return a;
}

HipFunction::HipFunction(hipFunction_t handle, const kit::AmdgpuKernel& kernel)
    : m_handle(handle), m_name(kernel.name), m_params(explicit_params(kernel)),
      m_attributes(attributes_of(kernel)) {}

HipModule::HipModule(std::shared_ptr<ContextState> state, hipModule_t handle,
                     kit::AmdgpuCodeObject code)
    : m_state(std::move(state)), m_handle(handle), m_code(std::move(code)) {}

HipModule::~HipModule() {
  m_functions.clear();
  if (m_state->abandoned)
    return;
  kit::DeviceOutputScope output(m_state->device_output, kit::CaptureFailure::let_through);
  m_state->make_current_quietly();
  (void)m_state->api.module_unload(m_handle);
}

Function& HipModule::function(const std::string& name) {
  if (auto found = m_functions.find(name); found != m_functions.end())
    return *found->second;
  const auto kernel = std::find_if(m_code.kernels.begin(), m_code.kernels.end(),
                                   [&](const kit::AmdgpuKernel& k) { return k.name == name; });
  if (kernel == m_code.kernels.end()) {
    const auto names = kernel_names();
    throw usage_error(fmt::format(
        "kernel '{}' not found in module{} (kernels: {})", name, did_you_mean(name, names),
        names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  m_state->make_current();
  hipFunction_t f = nullptr;
  GPURUN_HIP_CHECK_MSG("hipModuleGetFunction",
                       m_state->api.module_get_function(&f, m_handle, name.c_str()),
                       ExitCode::device, "looking up kernel '{}'", name);
  auto fn = std::make_unique<HipFunction>(f, *kernel);
  auto& ref = *fn;
  m_functions.emplace(name, std::move(fn));
  return ref;
}

std::vector<std::string> HipModule::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& k : m_code.kernels)
    names.push_back(k.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<GlobalSymbol> HipModule::global(const std::string& name) {
  m_state->make_current();
  hipDeviceptr_t address = nullptr;
  std::size_t size = 0;
  const hipError_t r = m_state->api.module_get_global(&address, &size, m_handle, name.c_str());
  if (r == hipErrorNotFound || r == hipErrorInvalidSymbol)
    return std::nullopt;
  if (r != hipSuccess)
    throw_error(r, "hipModuleGetGlobal", ExitCode::device,
                fmt::format("looking up global '{}'", name), __FILE__, __LINE__);
  return GlobalSymbol{static_cast<DevicePtr>(reinterpret_cast<std::uintptr_t>(address)), size};
}

} // namespace gpurun::hip
