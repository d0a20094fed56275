#pragma once
// Every parameter of a run, once: its spec key, its command-line flags, its type and limits, its
// help and the RunRequest field it sets. The commands register their flags from this table
// (app/run_options.cpp), the run-spec reader reads specs through it (pipeline/spec.cpp), and bench
// cases given by flags go through it too (bench/suite.cpp). A new run parameter is one row here.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/dims.hpp"
#include "pipeline/run_request.hpp"

namespace gpurun {

/// The commands that take a parameter on their command line (a bit mask).
enum class Command : unsigned { run = 1, bench = 2, threads = 4, compile = 8, tune = 16 };
[[nodiscard]] constexpr unsigned operator|(Command a, Command b) {
  return static_cast<unsigned>(a) | static_cast<unsigned>(b);
}
[[nodiscard]] constexpr unsigned operator|(unsigned a, Command b) {
  return a | static_cast<unsigned>(b);
}

/// How a parameter's value is written on the command line and in a spec.
enum class ParameterType {
  text,     ///< a string
  compiler, ///< auto, nvrtc, clang or nvcc ("auto" is stored as "")
  path,     ///< a file or folder; relative to the spec's folder, else the working directory
  dims,     ///< X[,Y[,Z]]; a spec may also write an integer or an array
  count,    ///< a whole number in [min, max]; a spec may write an integer expression ("1<<20")
  bytes,    ///< a whole number ≥ min given as an integer expression, on the command line too
  real,     ///< a number ≥ min
  seconds,  ///< a watchdog limit in seconds: above 0; beyond k_max_watchdog_s, no limit
  flag,     ///< a switch
  texts,    ///< repeatable; a spec writes an array of strings
  paths,    ///< repeatable paths
  args,     ///< repeatable --arg grammar; a spec writes strings or {name, type, shape, fill}
  globals,  ///< the same, each named
  expects,  ///< repeatable NAME=VALUES; a spec writes an object NAME → VALUES
  defines,  ///< repeatable NAME[=VALUE]; a spec writes an array or an object NAME → VALUE
  print,    ///< outputs, all, none or NAMES; a spec may write an array of names
};

/// A parameter's value once read, before it is stored.
using ParameterValue = std::variant<bool, long long, double, std::optional<double>, std::string,
                                    std::vector<std::string>, Dim3>;

struct RunParameter {
  std::string_view name;     ///< the parameter, in messages and tests ("grid", "compile.std")
  std::string_view spec_key; ///< its key in a run spec ("compile.std"); empty: none
  std::string_view flags;    ///< CLI11 names ("--grid,-g"); empty: none
  std::string_view help;
  ParameterType type;
  unsigned commands;            ///< the Commands whose command line takes it
  bool backend_setting = false; ///< a DeviceSettings field: the backend reads it
  long long min = 0;            ///< count, bytes: the least value; real: ≥ min
  long long max = 0;            ///< count: the greatest value (0: no limit)
  /// Puts a value into the request: replaces the field, or adds to a list (-D, -I and --opt add
  /// to a spec's).
  void (*store)(RunRequest&, ParameterValue&&) = nullptr;

  [[nodiscard]] bool taken_by(Command c) const {
    return (commands & static_cast<unsigned>(c)) != 0;
  }
  [[nodiscard]] bool repeatable() const;
  /// The first long flag as messages name it ("--grid").
  [[nodiscard]] std::string_view flag() const;
};

/// The table, in the order help lists the flags.
[[nodiscard]] std::span<const RunParameter> run_parameters();
/// The parameter called `name`; throws std::logic_error when there is none (a programming error).
[[nodiscard]] const RunParameter& run_parameter(std::string_view name);

/// What a command line gave, as written, in the order of the table: each parameter with its
/// text (or texts, for a repeatable one). Read with apply_flags.
struct GivenFlags {
  std::vector<std::pair<const RunParameter*, std::vector<std::string>>> values;
  /// Where the @paths of arguments resolve (the working directory; RunRequest::base_dir).
  std::filesystem::path base_dir;

  void add(const RunParameter& parameter, std::vector<std::string> texts) {
    values.emplace_back(&parameter, std::move(texts));
  }
  [[nodiscard]] bool empty() const { return values.empty(); }
};

/// Reads one parameter's command-line text(s); paths stay as written (relative to the working
/// directory). Throws Error(usage) "FLAG 'TEXT': WHAT".
[[nodiscard]] ParameterValue read_flag_value(const RunParameter& parameter,
                                             const std::vector<std::string>& texts);

/// Stores `value` into `request` (RunParameter::store).
void store(RunRequest& request, const RunParameter& parameter, ParameterValue&& value);

/// Applies every given flag to `request` (a spec's, or a default RunRequest): each replaces what
/// the spec said, or adds to it for appending parameters (-D, -I, --opt).
void apply_flags(RunRequest& request, const GivenFlags& flags);

/// The run-spec keys of the table's parameters: the top-level ones, and for `section` ("compile")
/// the keys inside that object.
[[nodiscard]] std::vector<std::string_view> spec_keys(std::string_view section = {});

} // namespace gpurun
