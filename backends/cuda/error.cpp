#include "backends/cuda/error.hpp"

#include "backends/cuda/api.hpp"

namespace gpurun::cuda {
namespace {

// Names for when the driver cannot give them: no driver loaded, or the toolkit's stub libcuda
// (found through LD_LIBRARY_PATH), whose cuGetErrorName itself fails.
const char* builtin_name(CUresult result) {
#define GPURUN_CU_NAME(code, value)                                                                \
  case code:                                                                                       \
    return #code;
  switch (result) {
    GPURUN_CU_RESULTS(GPURUN_CU_NAME)
  default:
    return nullptr;
  }
#undef GPURUN_CU_NAME
}

// Descriptions for the codes that explain why there is no usable GPU at all.
const char* builtin_description(CUresult result) {
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "the loaded libcuda is the toolkit's stub library, not a real driver";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    return "system has unsupported display driver / cuda driver combination";
  default:
    return nullptr;
  }
}

const char* driver_description(CUresult result) {
  const auto& api = driver().api;
  const char* text = nullptr;
  if (api.get_error_string != nullptr && api.get_error_string(result, &text) == CUDA_SUCCESS &&
      text != nullptr)
    return text;
  return builtin_description(result);
}

} // namespace

std::string result_name(CUresult result) {
  const auto& api = driver().api;
  const char* name = nullptr;
  if (api.get_error_name != nullptr && api.get_error_name(result, &name) == CUDA_SUCCESS &&
      name != nullptr)
    return name;
  if (const char* known = builtin_name(result))
    return known;
  return fmt::format("CUresult {}", static_cast<int>(result));
}

std::string describe(CUresult result) {
  const char* text = driver_description(result);
  if (text == nullptr)
    return result_name(result);
  return fmt::format("{} ({})", result_name(result), text);
}

std::string format_error(std::string_view what, std::string_view name,
                         std::string_view description) {
  if (description.empty())
    return fmt::format("{}: {}", what, name);
  return fmt::format("{}: {} ({})", what, name, description);
}

void throw_error(CUresult result, const char* call, ExitCode code, std::string_view what,
                 const char* file, int line) {
  const std::string name = result_name(result);
  const char* text = driver_description(result);
  if (text == nullptr)
    text = "";
  throw BackendError(code, "cuda", call, static_cast<long>(result), name,
                     format_error(what, name, text), file, line);
}

} // namespace gpurun::cuda
