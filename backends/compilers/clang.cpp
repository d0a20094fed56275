#include "backends/compilers/clang.hpp"

#include "base/error.hpp"

namespace gpurun::clang_cuda {

const compilers::Availability& probe() {
  static const compilers::Availability none{false, "clang support is not built yet", "", ""};
  return none;
}

CompileResult compile(const KernelSource&, const CompileOptions&, const std::string&) {
  throw unavailable_error(probe().reason);
}

} // namespace gpurun::clang_cuda
