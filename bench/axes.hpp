#pragma once
// Benchmark axes in nvbench's syntax (`-a N=[1,2,3]`, `-a 'N[pow2]=[20:28]'`), their cross
// product, and the substitution of one point of it into the text of a suite case.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "pipeline/run_parameters.hpp"

namespace gpurun::bench {

/// A named axis and its values, kept as text ("1048576", "float").
struct Axis {
  std::string name;
  std::vector<std::string> values;
};

/// "N=[1,2,3]", "N=[2:10:2]" (inclusive, nvbench), "N[pow2]=[20:28]" (2^20 … 2^28, values
/// written in decimal), "N[pow2]=[20:28:2]", "T=[float,double]" (any non-integer text is a
/// string value), "N=5" (one value). Whitespace allowed. Errors: usage Error naming `field` and
/// the text: empty list, step 0 or negative where it cannot reach, more than 100000 values,
/// pow2 exponent outside 0..62, a name that is not an identifier, ranges of non-integers.
[[nodiscard]] Axis parse_axis(std::string_view text, std::string_view field = "-a");

/// One point of the cross product: axis name → value, in axis order.
using AxisPoint = std::vector<std::pair<std::string, std::string>>;

/// Every combination; the last axis varies fastest. No axes → one empty point. Duplicate axis
/// names, or more than 100000 points in all → usage Error.
[[nodiscard]] std::vector<AxisPoint> cross_product(const std::vector<Axis>& axes);

/// "N:1048576/block:256" ("" for no axes) — Google Benchmark's name style.
[[nodiscard]] std::string point_name(const AxisPoint& point);

/// `text` with every whole-word occurrence of an axis name (identifier boundaries) replaced by
/// its value; a numeric value is inserted as is, in parentheses when negative.
[[nodiscard]] std::string substitute(std::string_view text, const AxisPoint& point);

/// A suite case (a run-spec JSON object plus name/axes/bytes/flops) with the point substituted
/// into every string value, except: "name", "source" and "axes" untouched; in "args", "globals"
/// and "compile"/"defines" entries only the part after the first '=' (the parameter name stays;
/// in "args" an '=' counts as the name's only before any '[', ':' or '(', as --arg reads it, so
/// "f32[N]:rand(seed=7)" is all value), and the "name" of an object entry stays too; object keys
/// never. Numbers and booleans unchanged.
[[nodiscard]] nlohmann::json substitute_case(const nlohmann::json& case_doc,
                                             const AxisPoint& point);

/// The same for run parameters as the command line gave them: the source untouched, the names
/// of --arg, --global, --expect and -D entries kept, everything else substituted.
[[nodiscard]] GivenFlags substitute_flags(const GivenFlags& flags, const AxisPoint& point);

} // namespace gpurun::bench
