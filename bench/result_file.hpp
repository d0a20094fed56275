#pragma once
// Benchmark result files as `gpurun compare` reads them: per case, its samples in seconds. Three
// formats, told apart by their content: gpurun bench JSON (every raw sample), Google Benchmark
// JSON (repetitions are the samples) and nvbench JSON (samples from its binary sample-time files
// when they are there, else one value from its summaries). See docs/compare.md.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace gpurun::bench {

enum class ResultFormat { gpurun, google_benchmark, nvbench };

/// "gpurun", "google-benchmark", "nvbench".
[[nodiscard]] std::string_view to_string(ResultFormat format);

struct StoredCase {
  std::string name;
  std::vector<double> samples_s; ///< in file order; empty for a skipped case
  bool skipped = false;
  std::string reason; ///< why it was skipped
  std::string device; ///< the model that measured it, where the file says (gpurun's own files)
};

struct ResultFile {
  std::string label; ///< the path as given, for messages
  ResultFormat format = ResultFormat::gpurun;
  std::vector<StoredCase> cases; ///< in file order, one per name
  /// What was read with less than every sample (an nvbench sample file that could not be read).
  std::vector<std::string> warnings;
  /// The settings the figures were taken under (gpurun's files since they record them).
  std::vector<std::pair<std::string, std::string>> environment;
};

/// Reads and parses `path`. Throws usage Error naming the file (and the field, for a document
/// that is not one of the three formats or has a field of the wrong type).
[[nodiscard]] ResultFile read_result_file(const std::filesystem::path& path);

/// Parses a document already read. `label` names it in errors; nvbench sample files are looked up
/// relative to `folder`.
[[nodiscard]] ResultFile parse_result_document(const nlohmann::json& document,
                                               std::string_view label,
                                               const std::filesystem::path& folder);

} // namespace gpurun::bench
