#pragma once
// Binding --arg values to kernel parameters and type-checking them, before anything is compiled
// or allocated.
//
// Order: arguments bind by position. When every argument is named (and the signature comes from
// C/C++ source), they bind by name instead and may come in any order. A name given on a
// positional argument must be the name of the parameter at that position. PTX parameter names
// are the compiler's (k_param_0), so names given for PTX kernels only label the buffers.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "pipeline/arg_spec.hpp"
#include "pipeline/signature.hpp"

namespace gpurun {

struct BoundArg {
  std::size_t index = 0;              ///< parameter position
  std::string name;                   ///< the argument's name, else the parameter's
  const KernelParam* param = nullptr; ///< into the signature given to bind_args
  ArgSpec spec;
  bool is_input = false;               ///< a buffer bound to a const T* parameter
  std::optional<DType> scalar_type;    ///< scalars: written or taken from the parameter
  std::vector<std::byte> scalar_bytes; ///< scalars: the encoded value (range-checked)
};

/// Binds and checks `args` against the parameters of `kernel` (which must outlive the result).
/// Throws Error(usage) for: a wrong argument count ("kernel scalar_add takes 3 arguments (vector,
/// size, scalar); got 2"), a name that does not match, a buffer for a scalar parameter, a scalar
/// for a pointer, an element type that differs from the pointee ("--arg vector: f64 buffer for
/// parameter 'float* vector'"; void*, char* and unsigned char* take any buffer), an explicit
/// scalar type of another width or kind (float vs integer), and an out-of-range scalar.
[[nodiscard]] std::vector<BoundArg> bind_args(const KernelSignature& kernel,
                                              const std::vector<ArgSpec>& args);

} // namespace gpurun
