#pragma once
// A launch's arguments as a driver's launch call takes them (cuLaunchKernel's and
// hipModuleLaunchKernel's kernelParams): each argument's bytes, a buffer as its device address,
// and an array of pointers to them.
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun::kit {

/// What a parameter whose layout says 0 bytes takes: any argument (the size could not be told),
/// or only an empty one.
enum class ZeroSizeParam { any_argument, exact };

class KernelArguments {
public:
  explicit KernelArguments(const ArgPack& args);
  KernelArguments(const KernelArguments&) = delete;
  KernelArguments& operator=(const KernelArguments&) = delete;

  /// Error(usage) naming `kernel` unless there is one argument for each of `params`, each of its
  /// parameter's size.
  void check(std::string_view kernel, std::span<const ParamLayout> params,
             ZeroSizeParam zero_size) const;

  /// The pointers to the arguments' bytes; nullptr for a kernel without parameters.
  [[nodiscard]] void** pointers() { return m_pointers.empty() ? nullptr : m_pointers.data(); }

private:
  std::vector<std::vector<std::byte>> m_values;
  std::vector<void*> m_pointers;
};

} // namespace gpurun::kit
