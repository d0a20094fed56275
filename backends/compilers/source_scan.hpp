#pragma once
// The top-level structure of a CUDA/HIP translation unit, read without a preprocessor (on the
// lexemes of source_lex.hpp): its declarations at namespace scope, each classified (kernel, device
// function, host function, type …) with the names it declares and the names it mentions.
// whole_file.cpp uses it to hand a compiler only the device side of a file that also holds host
// code; `gpurun list` uses it to show a file's kernels and their launches.
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "backends/compilers/source_lex.hpp"

namespace gpurun::compilers::scan {

/// What a declaration at namespace scope is, as far as device compilation cares.
enum class Role {
  kernel,          ///< __global__ function (declaration, definition or explicit instantiation)
  device_function, ///< __device__ (or __host__ __device__) function
  device_variable, ///< __device__ / __constant__ / __shared__ / __managed__ variable
  host_function,   ///< a function without a device qualifier (not constexpr)
  host_variable,   ///< a variable without a device qualifier that device code cannot read
  entity,          ///< a type, alias, enum, constant, constexpr function, template …
  macro_call,      ///< a function-like macro invoked at namespace scope (may expand to anything)
  using_namespace, ///< using namespace X;
  static_assertion,
  unknown, ///< not recognised: kept as written
};

[[nodiscard]] std::string_view role_name(Role role);

struct Unit {
  Role role = Role::unknown;
  std::size_t first = 0;          ///< index of the first lexeme (directives included in the range)
  std::size_t last = 0;           ///< index one past the last lexeme
  std::vector<std::string> names; ///< names it declares (unqualified)
  std::vector<std::string> attached; ///< classes an out-of-line member belongs to (Foo::bar)
  std::set<std::string> mentions;    ///< identifiers in it, macros expanded
  std::string nominated;             ///< the namespace of `using namespace X;`
  bool is_operator = false;
  bool is_definition = false; ///< a function with a body
};

/// The declarations of a text at namespace scope; namespaces and `extern "C" { }` blocks are
/// opened (their braces belong to no unit and are always kept). `ok` is false, with `problem`
/// saying where, when the braces do not balance (conditional compilation splitting a
/// declaration, say): the text is then best left as it is.
struct Structure {
  std::vector<Lexeme> lexemes;
  std::vector<Unit> units;
  Macros macros;
  std::set<std::string> namespaces; ///< names of the namespaces the text opens
  bool ok = true;
  std::string problem;
};

/// Reads the structure of `text`. `known` supplies macros defined elsewhere (none by default).
[[nodiscard]] Structure read_structure(std::string_view text, const Macros& known = {});

} // namespace gpurun::compilers::scan
