#pragma once
// Whole-file writes of gpurun's outputs (--json, --junit, --md, -o, merge's OUT, --save). Onto a
// regular file or a new path the write is atomic: readers see the old content or the new, because
// the new bytes go to a temporary file in the same folder that is flushed to disk and then renamed
// over the target (through a symbolic link: over the file it names). Anything else is written
// straight through, never replaced: a device (/dev/null, /dev/full), a FIFO, and standard output,
// whether named "-" or by a path that is the file standard output already writes to
// (/dev/stdout, /proc/self/fd/1, the terminal). The temporary file is removed on every error and
// when SIGINT, SIGTERM or SIGHUP ends the process (base/signal_cleanup.hpp).

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>

namespace gpurun {

/// Writes `bytes` to `path` as above. Throws usage Error naming the path when the file cannot be
/// written, including a write or close that fails (ENOSPC on /dev/full or a full disk).
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);
void write_file_atomic(const std::filesystem::path& path, std::string_view text);

/// Whether a write to `path` goes to standard output: "-", or the file standard output has open.
[[nodiscard]] bool writes_to_standard_output(const std::filesystem::path& path);

} // namespace gpurun
