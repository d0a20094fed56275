#include "base/file_identity.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/format.hpp"

namespace gpurun {

bool same_regular_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  struct stat first {};
  struct stat second {};
  if (::stat(a.c_str(), &first) != 0 || ::stat(b.c_str(), &second) != 0)
    return false;
  return S_ISREG(first.st_mode) && S_ISREG(second.st_mode) && first.st_dev == second.st_dev &&
         first.st_ino == second.st_ino;
}

void check_output_is_no_input(std::string_view flag, const std::filesystem::path& output,
                              std::span<const NamedInput> inputs) {
  if (output.empty() || output == "-")
    return;
  for (const NamedInput& input : inputs)
    if (same_regular_file(output, input.path))
      throw usage_error(fmt::format("{} {}: the same file as {} ({}); an output must not "
                                    "overwrite an input",
                                    flag, one_line(output.string()), input.role,
                                    one_line(input.path.string())));
}

} // namespace gpurun
