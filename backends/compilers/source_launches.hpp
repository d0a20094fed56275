#pragma once
// The launches a file's host code makes: `k<<<grid, block, shared, stream>>>(…)` and
// `hipLaunchKernelGGL(k, grid, block, shared, stream, …)`, with the function they are in
// (`gpurun list`).
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::compilers::scan {

/// One `NAME<<<…>>>(…)` launch in host code.
struct Launch {
  std::string kernel;              ///< as written, template arguments included ("k<float>")
  std::string caller;              ///< the function the launch is in
  std::vector<std::string> config; ///< grid, block[, shared[, stream]] expressions as written
  std::string arguments;           ///< the argument list as written
  int line = 0;
};

/// Every `<<<>>>` and hipLaunchKernelGGL launch in `text`, in order; expressions as written, with
/// each run of whitespace (a line break in a long argument list) as one space.
[[nodiscard]] std::vector<Launch> find_launches(std::string_view text);

} // namespace gpurun::compilers::scan
