#pragma once
// Reading the files a user names (sources, specs, data, references, cache entries). Only regular
// files are read: a FIFO would block forever, /dev/zero would never end, a directory is no data.
#include <filesystem>
#include <optional>
#include <string>

namespace gpurun {

/// The whole file as bytes in a string; std::nullopt when it cannot be opened or is not a regular
/// file, with the reason ("is a directory", "is a FIFO, not a regular file", "No such file or
/// directory") in `why` when given. Callers say what the file was for in their own message.
[[nodiscard]] std::optional<std::string> read_file(const std::filesystem::path& path,
                                                   std::string* why = nullptr);

} // namespace gpurun
