#pragma once
// The on-disk compile cache: what Context::compile() produced, keyed by everything that could
// change it, so a second run of the same kernel skips the compiler.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "backends/backend.hpp"

namespace gpurun {

class CompileCache {
public:
  /// `dir` need not exist; it is created by the first store().
  explicit CompileCache(std::filesystem::path dir);

  /// $GPURUN_CACHE_DIR, else $XDG_CACHE_HOME/gpurun, else ~/.cache/gpurun.
  [[nodiscard]] static std::filesystem::path default_dir();

  /// SHA-256 (hex) over the source text, the contents of the local headers it includes
  /// (`#include "…"` resolved against the including file's folder and the -I folders,
  /// recursively), the compile options, `compiler_id` (compiler version and target), the backend
  /// and gpurun's version.
  [[nodiscard]] std::string key(const KernelSource& source, const CompileOptions& options,
                                const std::string& compiler_id, const std::string& backend) const;

  /// The entry for `key`; std::nullopt on a miss. A corrupt or truncated entry is a miss and is
  /// removed.
  [[nodiscard]] std::optional<CompileResult> load(const std::string& key) const;

  /// Writes the entry atomically (temporary file + rename), so concurrent gpurun processes never
  /// see half an entry. Failures (read-only or full disk) are ignored: the cache only saves time.
  void store(const std::string& key, const CompileResult& result) const;

  struct Info {
    std::filesystem::path dir;
    std::size_t entries = 0;
    std::uint64_t bytes = 0;
  };
  [[nodiscard]] Info info() const;

  /// Removes every entry (and leftover temporary files); returns how many entries were removed.
  std::size_t clear() const;

  /// Where the entry for `key` lives.
  [[nodiscard]] std::filesystem::path entry_path(const std::string& key) const;

private:
  std::filesystem::path m_dir;
};

} // namespace gpurun
