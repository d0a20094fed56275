#pragma once
// Buffer fills: what a buffer holds before it is copied to the device.
//
//   zeros | ones | CONST | iota | iota(START,STEP) | rand(seed=S[,LO,HI])
//   | randn(seed=S[,MEAN,STD]) | [v, v, …] | @PATH (.npy or raw bytes)
//
// docs/arg-grammar.md gives the exact semantics (ranges, rounding, the random mappings).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/arithmetic.hpp"
#include "base/dtype.hpp"
#include "base/host_buffer.hpp"

namespace gpurun {

struct FillSpec {
  /// uninit: allocated and never written by the host (the host copy reads as zeros)
  enum class Kind { zeros, ones, constant, iota, rand, randn, list, file, uninit };
  Kind kind = Kind::zeros;
  /// constant: the value; iota: START; rand: LO; randn: MEAN (as doubles, for float buffers).
  double a = 0;
  /// iota: STEP; rand: HI; randn: STD.
  double b = 1;
  std::uint64_t seed = 0;
  /// list: the values as written.
  std::vector<std::string> list;
  /// file: the path as written (relative paths resolve against apply_fill's base_dir).
  std::string path;
  /// iota/rand/randn were given START,STEP / LO,HI / MEAN,STD explicitly.
  bool has_params = false;
  /// The texts behind `a` and `b` (constant, START/STEP, LO/HI), so integer buffers get values
  /// beyond 2^53 exactly.
  std::string a_text;
  std::string b_text;
  /// The option this fill came from, for errors found when it is applied ("--arg", "x=f32[4]:…").
  std::string field = "--arg";
  std::string origin;
};

/// Parses the FILL part of a buffer spec for a buffer of `dtype` with `count` elements; `where`
/// locates `text` in the whole option for errors. Values, ranges and the list length are checked
/// here; files are checked when the fill is applied.
[[nodiscard]] FillSpec parse_fill(std::string_view text, DType dtype, std::size_t count,
                                  const SourceText& where);

/// Fills `buffer` (whose dtype and shape are already set) as `fill` says. Relative file paths
/// resolve against `base_dir`. Throws usage Error naming the option on a mismatch.
void apply_fill(const FillSpec& fill, HostBuffer& buffer, const std::filesystem::path& base_dir);

} // namespace gpurun
