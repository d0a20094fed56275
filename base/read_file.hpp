#pragma once
// Reading the files a user names (sources, specs, data, references, cache entries). Only regular
// files are read: a FIFO would block forever, /dev/zero would never end, a directory is no data.
// A file is read whole, so its size is checked first: a 16 GiB file named by mistake is refused
// with its size instead of exhausting memory.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>

namespace gpurun {

/// The most gpurun reads of a source, spec, suite, result or shard file (docs/exit-codes.md).
inline constexpr std::uint64_t k_max_read_bytes = std::uint64_t{4} << 30;
/// For data files, whose size the buffer they fill decides: only memory limits them.
inline constexpr std::uint64_t k_no_read_limit = std::numeric_limits<std::uint64_t>::max();

/// The whole file as bytes in a string; std::nullopt when it cannot be opened, is not a regular
/// file, is larger than `max_bytes` or does not fit in memory, with the reason ("is a directory",
/// "is a FIFO, not a regular file", "No such file or directory", "is 16.0 GiB, more than the
/// 4.00 GiB gpurun reads") in `why` when given. Callers say what the file was for in their own
/// message.
[[nodiscard]] std::optional<std::string> read_file(const std::filesystem::path& path,
                                                   std::string* why = nullptr,
                                                   std::uint64_t max_bytes = k_max_read_bytes);

} // namespace gpurun
