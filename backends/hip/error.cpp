#include "backends/hip/error.hpp"

#include "backends/hip/api.hpp"

namespace gpurun::hip {

std::string result_name(hipError_t result) {
  const auto& api = runtime().api;
  if (api.get_error_name != nullptr)
    if (const char* name = api.get_error_name(result); name != nullptr && *name != '\0')
      return name;
  return fmt::format("hipError_t {}", static_cast<int>(result));
}

std::string describe(hipError_t result) {
  const auto& api = runtime().api;
  const std::string name = result_name(result);
  const char* text = api.get_error_string != nullptr ? api.get_error_string(result) : nullptr;
  // ROCm 5 answers some codes with the name itself.
  if (text == nullptr || *text == '\0' || name == text)
    return name;
  return fmt::format("{} ({})", name, text);
}

void throw_error(hipError_t result, const char* call, ExitCode code, std::string_view what,
                 const char* file, int line) {
  throw BackendError(code, "hip", call, static_cast<long>(result), result_name(result),
                     fmt::format("{}: {}", what, describe(result)), file, line);
}

} // namespace gpurun::hip
