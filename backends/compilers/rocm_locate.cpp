#include "backends/compilers/rocm_locate.hpp"

#include <cstdlib>

namespace gpurun::rocm {
namespace {

std::vector<std::string> with_folders(const std::vector<std::string>& names) {
  std::vector<std::string> out = names;
  std::vector<std::string> folders;
  if (const char* rocm = std::getenv("ROCM_PATH"); rocm != nullptr && *rocm != '\0')
    folders.push_back(std::string(rocm) + "/lib");
  folders.emplace_back("/opt/rocm/lib");
  for (const auto& folder : folders)
    for (const auto& name : names)
      out.push_back(folder + "/" + name);
  return out;
}

const std::vector<std::string> k_runtime_names{"libamdhip64.so.7", "libamdhip64.so.6",
                                               "libamdhip64.so.5", "libamdhip64.so"};
const std::vector<std::string> k_hiprtc_names{"libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so"};

} // namespace

std::vector<std::string> runtime_candidates() {
  if (const char* exact = std::getenv("GPURUN_HIP_LIBRARY"); exact != nullptr && *exact != '\0')
    return {exact};
  return with_folders(k_runtime_names);
}

std::vector<std::string> hiprtc_candidates() {
  return with_folders(k_hiprtc_names);
}

std::string first_reason(const std::string& error) {
  return error.substr(0, error.find(';'));
}

} // namespace gpurun::rocm
