#pragma once
// Whole-file writes that never leave a half-written file behind: readers see the old content or
// the new, because the new bytes go to a temporary file in the same directory that is flushed to
// disk and then renamed over the target.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

namespace gpurun {

/// Writes `bytes` to `path` atomically; throws usage Error naming the path on failure.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);
void write_file_atomic(const std::filesystem::path& path, std::string_view text);

} // namespace gpurun
