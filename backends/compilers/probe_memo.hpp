#pragma once
// What a slow probe of a compiler found (clang's --version, loading NVRTC), kept in the cache
// folder under probes/ for the next run: named by a key that holds the identity of every file the
// answer depends on, so a replaced or upgraded compiler is probed again.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gpurun::probe_memo {

/// "path inode size mtime", or "path -" when there is no such file.
[[nodiscard]] std::string file_identity(const std::string& path);

/// The memo's file for `kind` ("clang", "nvrtc") and `key`.
[[nodiscard]] std::filesystem::path path_for(std::string_view kind, std::string_view key);

/// The memo's text, or nullopt when it is not there.
[[nodiscard]] std::optional<std::string> read(const std::filesystem::path& memo);

/// Keeps `text` (atomically). A cache that cannot be written only costs the next run the probe.
void keep(const std::filesystem::path& memo, std::string_view text);

} // namespace gpurun::probe_memo
