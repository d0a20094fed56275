#include "backends/cuda/error.hpp"

#include "backends/cuda/api.hpp"

namespace gpurun::cuda {

std::string result_name(CUresult result) {
  const auto& api = driver().api;
  const char* name = nullptr;
  if (api.get_error_name != nullptr && api.get_error_name(result, &name) == CUDA_SUCCESS &&
      name != nullptr)
    return name;
  return fmt::format("CUresult {}", static_cast<int>(result));
}

std::string describe(CUresult result) {
  const auto& api = driver().api;
  const char* text = nullptr;
  if (api.get_error_string != nullptr && api.get_error_string(result, &text) == CUDA_SUCCESS &&
      text != nullptr)
    return fmt::format("{} ({})", result_name(result), text);
  return result_name(result);
}

std::string format_error(std::string_view what, std::string_view name,
                         std::string_view description) {
  if (description.empty())
    return fmt::format("{}: {}", what, name);
  return fmt::format("{}: {} ({})", what, name, description);
}

void throw_error(CUresult result, const char* call, ExitCode code, std::string_view what,
                 const char* file, int line) {
  const auto& api = driver().api;
  const std::string name = result_name(result);
  const char* text = nullptr;
  if (api.get_error_string == nullptr || api.get_error_string(result, &text) != CUDA_SUCCESS ||
      text == nullptr)
    text = "";
  throw BackendError(code, "cuda", call, static_cast<long>(result), name,
                     format_error(what, name, text), file, line);
}

} // namespace gpurun::cuda
