// The C kernel-signature parser (pipeline/signature, detail/c_lexer, detail/c_types): CUDA source
// → every __global__ signature, then each kernel selected by name and instantiated with template
// arguments as `--kernel 'name<float, 4>'` does; the same text as OpenCL C (every __kernel, with
// address-space qualifiers) and as a compiled kernel's parameter declarations.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.hpp"
#include "pipeline/signature.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const std::string_view source = fuzz::as_text(data, size);
  try {
    const std::vector<KernelSignature> kernels = find_kernels(source);
    for (const KernelSignature& k : kernels) {
      for (const KernelParam& p : k.params)
        (void)describe(p);
      std::string expression = k.name;
      if (k.is_template) {
        expression += '<';
        for (std::size_t i = 0; i < k.template_params.size(); ++i)
          expression += i == 0 ? "float" : ", 4";
        expression += '>';
      }
      try {
        (void)instantiate(select_kernel(kernels, expression), expression);
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
  try {
    for (const KernelSignature& k : find_opencl_kernels(source))
      for (const KernelParam& p : k.params)
        (void)describe(p);
  } catch (const Error&) {
  }
  try {
    std::vector<ParamLayout> layout(1);
    layout[0].declaration = std::string(source);
    (void)opencl_signature("k", layout);
  } catch (const Error&) {
  }
  try {
    (void)parse_param_type(source);
  } catch (const Error&) {
  }
  return 0;
}
