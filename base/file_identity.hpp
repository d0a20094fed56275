#pragma once
// Whether two paths name one file, by what the file system says (its device and inode), not by
// the text: "results.json", "./results.json", "../here/results.json", a symbolic link to it and a
// hard link to it are one file. Commands use it to refuse an output that would overwrite one of
// their inputs before they do any work.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace gpurun {

/// True when both paths exist and name the same regular file. Devices and FIFOs are never the
/// same file in this sense: writing to /dev/stdout does not overwrite a read from /dev/stdin.
[[nodiscard]] bool same_regular_file(const std::filesystem::path& a,
                                     const std::filesystem::path& b);

/// An input of a command, as its errors name it.
struct NamedInput {
  std::filesystem::path path;
  std::string role; ///< "the suite", "the baseline"
};

/// Throws usage Error when `output` (given with `flag`: "--json", "-o", "OUT") is the same file as
/// one of `inputs`: "--json ./suite.json: the same file as the suite (suite.json); an output
/// must not overwrite an input". "-" (standard output) is never an input.
void check_output_is_no_input(std::string_view flag, const std::filesystem::path& output,
                              std::span<const NamedInput> inputs);

} // namespace gpurun
