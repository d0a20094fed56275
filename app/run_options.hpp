#pragma once
// The command-line side of the run-parameter table (pipeline/run_parameters.hpp): each command
// registers the table's flags it takes, and gets back what was given, as written. `run`'s own
// options (the file, --spec, the output flags) and its request are here too.
#include <deque>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline/run_parameters.hpp"

namespace gpurun {

/// The table's flags on one command, bound to their text until the command line is parsed.
class ParameterFlags {
public:
  /// Adds an option for every parameter `command` takes, in the table's order; a flag name the
  /// command already uses for its own option is left to that option.
  void add_to(CLI::App& cmd, Command command);
  /// The option of parameter `name` (to mark it required, …); nullptr when it was not added.
  [[nodiscard]] CLI::Option* option(std::string_view name) const;
  /// The parameters given on the command line, with their texts; base_dir is the working
  /// directory.
  [[nodiscard]] GivenFlags given() const;

private:
  struct Bound {
    const RunParameter* parameter = nullptr;
    CLI::Option* option = nullptr;
    std::string text;               ///< a single value
    std::vector<std::string> texts; ///< a repeatable parameter's values
    bool on = false;                ///< a switch
  };
  std::deque<Bound> m_bound; // CLI11 holds references into it: a deque never moves them
};

struct RunOptions {
  std::string file;
  std::string spec;
  std::string junit_file; ///< --junit: each --expect a JUnit test case
  bool json = false;
  bool verbose = false; ///< -v: the compiler, what of a whole file it got, a compile error's log
  bool quiet = false;
  ParameterFlags parameters;
};

void add_run_options(CLI::App& cmd, RunOptions& options);

/// Builds the request: the spec file (FILE.json or --spec) first, then every flag that was given.
[[nodiscard]] RunRequest make_run_request(const RunOptions& options);

} // namespace gpurun
