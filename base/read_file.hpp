#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace gpurun {

/// The whole file as bytes in a string; std::nullopt when it cannot be opened. Callers say what
/// the file was for in their own error message.
[[nodiscard]] std::optional<std::string> read_file(const std::filesystem::path& path);

} // namespace gpurun
