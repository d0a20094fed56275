#pragma once
// A failed device assert on a GPU: the driver prints CUDA's line for each thread that failed one
// on standard error at its next flush point, and the stream reports CUDA_ERROR_ASSERT. These find
// those lines in what was captured there, so that the error names the assertion.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace gpurun::cuda {

struct AssertionLines {
  std::string first;     ///< the first line printed ("" when none)
  std::size_t count = 0; ///< lines printed
};

/// The lines of `text` in CUDA's assertion form, "FILE:LINE: FUNCTION: block: [X,Y,Z], thread:
/// [X,Y,Z] Assertion `CONDITION` failed." (FUNCTION and its colon absent where the caller passed
/// none); other text around them is passed over.
[[nodiscard]] AssertionLines find_assertions(std::string_view text);

/// "kernel 'K' failed an assertion: LINE", with "(and N more threads)" when several printed one.
[[nodiscard]] std::string describe_assertion(std::string_view kernel, const AssertionLines& lines);

/// Whether a module image (PTX, cubin or an uncompressed fatbin) calls __assertfail: the name is
/// in PTX text and in a cubin's symbol names.
[[nodiscard]] bool calls_assertfail(std::span<const std::byte> image);

} // namespace gpurun::cuda
