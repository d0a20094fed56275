#pragma once
// The --arg grammar (docs/arg-grammar.md):
//
//   ARG    := [NAME '='] (SCALAR | BUFFER)
//   SCALAR := [TYPE ':'] NUMBER                 20 · f32:20.0 · u64:1<<20
//   BUFFER := TYPE '[' DIMS ']' ['@' DEVICE] [':' FILL]
//                                              f32[20]:iota · u8[1<<20]:rand(seed=7) · f32[8]@1:0

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/dtype.hpp"
#include "pipeline/fill.hpp"

namespace gpurun {

struct ArgSpec {
  enum class Kind { scalar, buffer };
  std::optional<std::string> name;
  Kind kind = Kind::scalar;
  /// Always set for buffers; for scalars only when written ("f32:2"), else it comes from the
  /// kernel's signature.
  std::optional<DType> dtype;
  /// scalar: the number as written (checked to be a number; encode_scalar converts it).
  std::string scalar_text;
  /// buffer: the extents, outermost first (f32[64,32] → {64, 32}).
  std::vector<std::size_t> shape;
  /// buffer: how to fill it (zeros when no fill is written).
  FillSpec fill;
  /// buffer: the device it lives on (`@N`), when not the run's own; its data crosses to the run's
  /// device by a device-to-device copy (docs/multi-gpu.md).
  std::optional<int> device;
  /// The whole spec as given, for messages.
  std::string text;
};

/// Parses one --arg value; throws usage Error quoting it and pointing at the bad character.
/// `field` names the option in errors.
[[nodiscard]] ArgSpec parse_arg_spec(std::string_view text, std::string_view field = "--arg");

/// Splits "NAME=VALUE" (--global, --expect) at the first '='; throws usage Error naming `field`
/// when there is no '=', the name is empty or not an identifier, or the value is empty.
[[nodiscard]] std::pair<std::string, std::string> split_name_value(std::string_view text,
                                                                   std::string_view field);

/// The little-endian bytes of scalar `text` as `type`: integers by expression with a range check,
/// floats by eval_number rounded to the type (f16/bf16 to nearest even). `field` names the
/// argument in errors.
[[nodiscard]] std::vector<std::byte> encode_scalar(DType type, std::string_view text,
                                                   std::string_view field);

} // namespace gpurun
