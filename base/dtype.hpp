#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpurun {

/// Element types of buffers and scalars.
enum class DType { f16, bf16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64 };

/// "f32" → DType::f32; std::nullopt when unknown.
[[nodiscard]] std::optional<DType> parse_dtype(std::string_view name);
[[nodiscard]] std::string_view dtype_name(DType t);
[[nodiscard]] std::size_t dtype_size(DType t);
[[nodiscard]] bool is_float(DType t);
[[nodiscard]] bool is_signed_int(DType t);
/// NumPy `descr` ("<f4", "<f2", "|u1"); bf16 has no NumPy type and is stored as its raw bits
/// under "<u2" (docs/arg-grammar.md).
[[nodiscard]] std::string numpy_descr(DType t);

/// Reads one element at `p` as double (f16/bf16 decoded).
[[nodiscard]] double load_as_double(DType t, const void* p);
/// Reads integral elements exactly.
[[nodiscard]] long long load_as_int64(DType t, const void* p);
[[nodiscard]] unsigned long long load_as_uint64(DType t, const void* p);
/// Stores `v` converted to `t` (round-to-nearest-even for f16/bf16, C casts otherwise).
void store_from_double(DType t, void* p, double v);
/// Stores an integer exactly (wraps to the type's width).
void store_from_int64(DType t, void* p, long long v);
/// Formats one element for humans: integers exactly, floats in shortest round-trip form.
[[nodiscard]] std::string format_element(DType t, const void* p);

/// IEEE half / bfloat16 conversions (round to nearest even; NaNs stay NaN with the quiet bit set
/// and the top payload bits kept, as x86 F16C does).
[[nodiscard]] float half_to_float(std::uint16_t h);
[[nodiscard]] std::uint16_t float_to_half(float f);
[[nodiscard]] float bf16_to_float(std::uint16_t b);
[[nodiscard]] std::uint16_t float_to_bf16(float f);

} // namespace gpurun
