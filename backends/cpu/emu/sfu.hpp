#pragma once
// The GPU's special-function unit (SASS MUFU) bit for bit, for the `.approx` instructions, which
// ptxas lowers to one MUFU operation plus exact scaling (numeric_float.hpp composes them the same
// way). Each f32/f64 function is a per-segment model of its result over the key its exponent
// leaves (mantissa, exponent parity, or ex2's fixed-point fraction) plus the keys where the model
// is off — lg2 and tanh are the unit's own interpolation, exact without exceptions; the 16-bit
// forms are whole tables. The tables are derived from an H200's results by tools/approx
// (docs/sfu.md has the method) and embedded in the binary.
//
// Every function takes and returns bit patterns; inputs that are subnormal are flushed to zero
// and results that would be subnormal are flushed, as the unit does (tanh passes them through).
#include <cstdint>
#include <filesystem>

namespace gpurun::emu::sfu {

[[nodiscard]] std::uint32_t rcp(std::uint32_t x) noexcept;  ///< MUFU.RCP (f32)
[[nodiscard]] std::uint32_t rsq(std::uint32_t x) noexcept;  ///< MUFU.RSQ (f32)
[[nodiscard]] std::uint32_t sqrt(std::uint32_t x) noexcept; ///< MUFU.SQRT (f32)
[[nodiscard]] std::uint32_t ex2(std::uint32_t x) noexcept;  ///< MUFU.EX2 (f32)
[[nodiscard]] std::uint32_t lg2(std::uint32_t x) noexcept;  ///< MUFU.LG2 (f32)
[[nodiscard]] std::uint32_t tanh(std::uint32_t x) noexcept; ///< MUFU.TANH (f32)
/// MUFU.SIN / MUFU.COS of an argument in revolutions (what ptxas multiplies x by 1/2π for).
[[nodiscard]] std::uint32_t sin(std::uint32_t t) noexcept;
[[nodiscard]] std::uint32_t cos(std::uint32_t t) noexcept;
/// MUFU.RCP64H / MUFU.RSQ64H: the high word of an f64 in, the high word of the result out.
[[nodiscard]] std::uint32_t rcp64h(std::uint32_t hi) noexcept;
[[nodiscard]] std::uint32_t rsq64h(std::uint32_t hi) noexcept;
/// MUFU.EX2.F16 / .BF16 and MUFU.TANH.F16 / .BF16.
[[nodiscard]] std::uint16_t ex2_f16(std::uint16_t x) noexcept;
[[nodiscard]] std::uint16_t ex2_bf16(std::uint16_t x) noexcept;
[[nodiscard]] std::uint16_t tanh_f16(std::uint16_t x) noexcept;
[[nodiscard]] std::uint16_t tanh_bf16(std::uint16_t x) noexcept;

/// Replaces the embedded tables with the files of DIR (the names of backends/cpu/emu/sfu/), for
/// the tools that derive and check new ones. Throws gpurun::Error naming a file that is missing
/// or malformed. Not thread-safe: call it before any function above.
void load_tables(const std::filesystem::path& dir);

} // namespace gpurun::emu::sfu
