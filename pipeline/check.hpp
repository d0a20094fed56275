#pragma once
// --expect: the expected contents of an output buffer, and the comparison with what the kernel
// produced.
#include <cstddef>
#include <filesystem>
#include <string_view>

#include "base/host_buffer.hpp"
#include "pipeline/run_request.hpp"

namespace gpurun {

/// How many mismatches a CheckReport lists.
inline constexpr std::size_t k_reported_mismatches = 10;

/// The expected buffer for `text` (the part after "NAME="), given the output buffer `like`:
///   @ref.npy             a NumPy file (any numeric dtype, compared by value; same element count)
///   @ref.bin             raw bytes with the output's dtype and size
///   f32[20]:iota(20,1)   a whole buffer spec of the --arg grammar (its own dtype and shape)
///   [1, 2, 3] | iota(20,1) | 0 | rand(seed=1) …
///                        a fill, applied to a buffer with the output's dtype and shape
/// Relative paths resolve against `base_dir`. Throws Error(usage) naming `field` on bad text.
[[nodiscard]] HostBuffer parse_expectation(std::string_view text, const HostBuffer& like,
                                           const std::filesystem::path& base_dir,
                                           std::string_view field = "--expect");

/// Compares element by element: an element matches when |got - expected| <= atol + rtol *
/// |expected| (integers exactly, without a detour through double), or when both are NaN, or both
/// are the same infinity. Buffers of different element counts fail with a message. Lists the first
/// k_reported_mismatches mismatches (flat index, got, expected) and the largest absolute and
/// relative errors over all elements. `exact` (--exact) compares each element's bits instead:
/// elements of the same size, equal byte for byte (the tolerances then only inform the errors).
[[nodiscard]] CheckReport compare_buffers(const std::string& name, const HostBuffer& got,
                                          const HostBuffer& expected, double rtol, double atol,
                                          bool exact = false);

} // namespace gpurun
