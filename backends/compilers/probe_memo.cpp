#include "backends/compilers/probe_memo.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/atomic_file.hpp"
#include "base/cache_dir.hpp"
#include "base/detail/sha256.hpp"

namespace gpurun::probe_memo {

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return path + " -";
  return fmt::format("{} {} {} {}.{}", path, st.st_ino, st.st_size, st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec);
}

std::filesystem::path path_for(std::string_view kind, std::string_view key) {
  return default_cache_dir() / "probes" /
         fmt::format("{}-{}", kind, detail::sha256_hex(key).substr(0, 32));
}

std::optional<std::string> read(const std::filesystem::path& memo) {
  std::ifstream in(memo);
  if (!in)
    return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void keep(const std::filesystem::path& memo, std::string_view text) {
  std::error_code ec;
  std::filesystem::create_directories(memo.parent_path(), ec);
  try {
    write_file_atomic(memo, text);
  } catch (const std::exception&) {
    // A read-only cache: the next run asks again.
  }
}

} // namespace gpurun::probe_memo
