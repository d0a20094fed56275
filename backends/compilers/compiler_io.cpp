#include "backends/compilers/compiler_io.hpp"

#include <fstream>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/read_file.hpp"

namespace gpurun::compilers {

std::string std_argument(const CompileOptions& options) {
  if (options.std_version.empty())
    return "-std=c++17";
  return options.std_version.starts_with("-std=") ? options.std_version
                                                  : "-std=" + options.std_version;
}

void add_source_arguments(std::vector<std::string>& args, const KernelSource& source,
                          const CompileOptions& options) {
  for (const auto& d : options.defines)
    args.push_back("-D" + d);
  for (const auto& dir : options.include_dirs)
    args.push_back("-I" + dir);
  if (!source.path.empty()) {
    const auto folder = source.path.parent_path();
    args.push_back("-I" + (folder.empty() ? std::string(".") : folder.string()));
  }
}

void write_scratch_file(const std::filesystem::path& path, std::string_view text,
                        std::string_view compiler) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec); // hip/hip_runtime.h
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out)
    throw unavailable_error(
        fmt::format("cannot compile with {}: cannot write {}", compiler, path.string()));
}

std::string read_output_file(const std::filesystem::path& path) {
  return read_file(path, nullptr, k_no_read_limit).value_or(std::string());
}

} // namespace gpurun::compilers
