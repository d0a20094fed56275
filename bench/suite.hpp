#pragma once
// Benchmark suites (docs/bench.md): a JSON file of cases, each a run spec with axes, bytes and
// flops; or one case made from the command line. Expanded into one BenchCase per point of each
// case's axes, with the axis values substituted into the case before it is read as a run spec.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/axes.hpp"
#include "pipeline/run_parameters.hpp"
#include "pipeline/run_request.hpp"

namespace gpurun::bench {

/// One case of a suite before its axes are expanded.
struct CaseTemplate {
  std::string name;
  nlohmann::json doc;     ///< the run-spec keys, "bytes" and "flops" (defaults merged in)
  std::vector<Axis> axes; ///< in the order given
  /// The kernel-file form's case: the run parameters as the command line wrote them, applied
  /// over `doc`, and its --bytes and --flops.
  GivenFlags flags;
  std::optional<std::string> bytes;
  std::optional<std::string> flops;
};

struct Suite {
  std::string name;
  std::string description;
  std::string source_name;   ///< the file, as named in messages
  std::filesystem::path dir; ///< where the cases' relative paths resolve
  std::vector<CaseTemplate> cases;
};

/// Reads a suite file: {"name", "description", "defaults": {case keys}, "cases": [...]}. Each
/// case has "name" (required, unique), "axes" (array of axis texts, `-a` syntax), "bytes" and
/// "flops" (per launch: numbers or expressions over the axes) and any run-spec key. Throws
/// Error(usage) naming the file and the key.
[[nodiscard]] Suite read_suite(const std::filesystem::path& path);
/// The same from an already parsed document: `file` names it in messages, the cases' relative
/// paths resolve against `dir`, and a suite without "name" is called `default_name`.
[[nodiscard]] Suite suite_from_json(const nlohmann::json& doc, const std::string& file,
                                    const std::filesystem::path& dir,
                                    const std::string& default_name);

/// A suite of one case from a run spec.
[[nodiscard]] Suite single_case_suite(const nlohmann::json& case_doc, const std::string& name,
                                      const std::filesystem::path& dir);
/// A suite of one case from the command line: the kernel file and the run parameters given
/// (`flags`, the source among them), and --bytes and --flops when given.
[[nodiscard]] Suite single_case_suite(const GivenFlags& flags, std::optional<std::string> bytes,
                                      std::optional<std::string> flops, const std::string& name,
                                      const std::filesystem::path& dir);

/// One case at one point of its axes, ready to prepare.
struct BenchCase {
  std::string name;      ///< "copy/N:1048576" (the case name alone when it has no axes)
  std::string case_name; ///< "copy"
  AxisPoint point;
  RunRequest request;
  std::optional<double> bytes; ///< moved per launch
  std::optional<double> flops; ///< per launch
  /// Why this point cannot run (a spec error after substitution); the case is then skipped.
  std::optional<std::string> error;
};

/// Every case at every point. An axis in `overrides` replaces the case axis of the same name; one
/// that names no axis of any case is an Error(usage), except for a single-case suite, whose axes
/// are the overrides. Cases whose name is not matched by `filter` (a regular expression of
/// base/regex.hpp, searched in the full case name) are left out.
[[nodiscard]] std::vector<BenchCase> expand(const Suite& suite, const std::vector<Axis>& overrides,
                                            const std::string& filter = {});

} // namespace gpurun::bench
