#pragma once
// The --arg grammar (docs/arg-grammar.md):
//
//   ARG    := [NAME '='] (SCALAR | BUFFER | POINTER | RECORD)
//   SCALAR := [TYPE ':'] NUMBER                 20 · f32:20.0 · u64:1<<20
//   BUFFER := TYPE '[' DIMS ']' ['@' DEVICE] [':' FILL]
//                                              f32[20]:iota · u8[1<<20]:rand(seed=7) · f32[8]@1:0
//   POINTER := '&' NAME ['+' OFFSET]          &x · &pool+4096: the address of a named buffer
//   RECORD := '{' FIELD (',' FIELD)* '}'       {&x, i32:1024, f32:0.5}: a struct passed by value
//   LOCAL  := 'local:' (BYTES | TYPE '[' N ']') local:4096 · local:f32[256]: an OpenCL __local
//                                              pointer parameter's local memory
//   FIELD  := TYPE ':' NUMBER | POINTER       each at its natural alignment, as C lays out a struct

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/dtype.hpp"
#include "pipeline/fill.hpp"

namespace gpurun {

/// `&NAME+OFFSET`: the device address of byte OFFSET of buffer NAME (an argument's or a --memory
/// buffer's), known once the buffers are allocated.
struct PointerTo {
  std::string buffer;
  std::uint64_t offset = 0;
};

/// One field of a record: its bytes at `offset`, or a pointer there (8 bytes).
struct RecordField {
  std::size_t offset = 0;
  std::vector<std::byte> bytes; ///< a number's encoding; empty for a pointer
  std::optional<PointerTo> pointer;
};

struct ArgSpec {
  enum class Kind { scalar, buffer, pointer, record, local };
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
  /// pointer: what it points to.
  PointerTo pointer;
  /// record: the fields in order, and the record's size (its end rounded up to its widest
  /// field's alignment, as a C struct's).
  std::vector<RecordField> fields;
  std::size_t record_size = 0;
  /// local: the bytes of local memory the parameter gets.
  std::size_t local_bytes = 0;
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

/// The bytes a pointer or record argument passes, with `address(pointer)` giving each pointer's
/// value (the named buffer's device address plus the offset).
template <class AddressOf>
[[nodiscard]] std::vector<std::byte> encode_with_addresses(const ArgSpec& spec,
                                                           AddressOf&& address) {
  auto put = [](std::vector<std::byte>& out, std::size_t at, std::uint64_t value) {
    for (std::size_t i = 0; i < sizeof value; ++i)
      out[at + i] = static_cast<std::byte>(value >> (8 * i));
  };
  if (spec.kind == ArgSpec::Kind::pointer) {
    std::vector<std::byte> out(8);
    put(out, 0, address(spec.pointer));
    return out;
  }
  std::vector<std::byte> out(spec.record_size);
  for (const RecordField& f : spec.fields) {
    if (f.pointer)
      put(out, f.offset, address(*f.pointer));
    else
      std::copy(f.bytes.begin(), f.bytes.end(), out.begin() + static_cast<long>(f.offset));
  }
  return out;
}

} // namespace gpurun
