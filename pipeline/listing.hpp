#pragma once
// What is in a kernel file (`gpurun list`): every kernel as the user names it, with its template
// and function parameters, and the host code's own launches of it (`k<<<grid, block, shared>>>`).
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/signature.hpp"

namespace gpurun {

struct KernelLaunchSite {
  std::string expression; ///< the kernel as the launch names it: "k", "k<float>"
  std::string caller;     ///< the host function the launch is in
  std::string grid;
  std::string block;
  std::string shared; ///< empty when the launch gives none
  std::string stream; ///< empty when the launch gives none
  std::string arguments;
  int line = 0;
};

struct KernelListing {
  KernelSignature signature;
  std::vector<KernelLaunchSite> launches;
};

struct FileListing {
  std::filesystem::path file;
  std::vector<KernelListing> kernels;
};

/// The kernels of a CUDA/HIP source and its launches, or of a PTX module's entries. Throws
/// Error(usage) when the file cannot be read.
[[nodiscard]] FileListing list_file(const std::filesystem::path& file);

} // namespace gpurun
