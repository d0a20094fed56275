// The --arg grammar (pipeline/arg_spec): NAME=TYPE[DIMS]:FILL and NAME=TYPE:SCALAR. A buffer small
// enough to allocate is also filled, so the fill's values and ranges are exercised; file fills
// are left out (they would read whatever path the input names).
#include <cstddef>
#include <cstdint>

#include "base/error.hpp"
#include "base/host_buffer.hpp"
#include "pipeline/arg_spec.hpp"
#include "pipeline/fill.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {
constexpr std::size_t k_max_fill_bytes = 1 << 16;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const std::string_view text = fuzz::as_text(data, size);
  try {
    const ArgSpec spec = parse_arg_spec(text);
    if (spec.kind == ArgSpec::Kind::scalar) {
      // An untyped scalar takes the parameter's type: try an integer and a float one.
      (void)encode_scalar(spec.dtype.value_or(DType::i32), spec.scalar_text, "--arg");
      if (!spec.dtype)
        (void)encode_scalar(DType::f16, spec.scalar_text, "--arg");
      return 0;
    }
    // A pointer (&NAME+OFFSET) or a record has no element type of its own to fill.
    if (spec.kind != ArgSpec::Kind::buffer || !spec.dtype)
      return 0;
    std::size_t bytes = dtype_size(*spec.dtype);
    for (const std::size_t d : spec.shape)
      if (__builtin_mul_overflow(bytes, d, &bytes))
        return 0;
    if (bytes > k_max_fill_bytes || spec.fill.kind == FillSpec::Kind::file)
      return 0;
    HostBuffer buffer(*spec.dtype, spec.shape);
    apply_fill(spec.fill, buffer, "/nonexistent");
  } catch (const Error&) {
  }
  try {
    (void)split_name_value(text, "--global");
  } catch (const Error&) {
  }
  return 0;
}
