#pragma once
// The parsed form of a PTX module: what the parser (ptx/parser.cpp) produces and the decoder
// (emu/decode.cpp) consumes. It is already flat per function: nested `{ }` scopes are gone and the
// registers and .param variables they declared are renamed to unique names ("%r1" declared in an
// inner scope becomes e.g. "%r1$1"; a range `%r<3>` redeclared inside becomes base "%r$2_", so its
// members are "%r$2_0" …), labels stay as statements in instruction order.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::ptx {

enum class StateSpace { reg, sreg, global, shared, local, const_, param, generic };

/// One operand of an instruction.
struct Operand {
  enum class Kind {
    reg,       ///< %r1, %rd4, %p2, %f3 (after scope renaming); `name`
    special,   ///< %tid.x, %laneid, %clock64, %lanemask_lt …; `name` holds the full text
    imm_int,   ///< decimal, hex (0x…), octal or binary literal; `bits` holds the value
    imm_f32,   ///< 0fXXXXXXXX or a decimal float literal; `bits` holds the f32 bit pattern
    imm_f64,   ///< 0dXXXXXXXXXXXXXXXX; `bits` holds the f64 bit pattern
    symbol,    ///< a variable or function name used as a value; `name`
    address,   ///< [base+offset]: `name` = base register or symbol (may be empty for [imm]),
               ///< `offset` the signed displacement
    vector,    ///< {a, b, c, d}: `elements`
    pred_pair, ///< %r5|%p1 (shfl/setp two outputs): elements[0] = value, elements[1] = pred
    sink,      ///< `_`
  };
  Kind kind = Kind::reg;
  std::string name;
  std::uint64_t bits = 0;
  std::int64_t offset = 0;
  bool negated = false; ///< `!%p` as a source predicate operand
  std::vector<Operand> elements;
};

/// One instruction. `opcode` is the base ("ld", "setp", "cvt"); `modifiers` are the dotted
/// suffixes in source order ("global", "nc", "f32"). For `call` the operands are:
/// [vector of return params (possibly empty), symbol(callee), vector of argument params].
struct Instruction {
  std::string guard;          ///< guard predicate register ("" when none)
  bool guard_negated = false; ///< @!%p
  std::string opcode;
  std::vector<std::string> modifiers;
  std::vector<Operand> operands;
  int line = 0;        ///< PTX source line (1-based)
  int source_file = 0; ///< from the last .loc (0 = none)
  int source_line = 0; ///< from the last .loc (0 = none)
};

/// A label: the target of branches; it names the next instruction.
struct Label {
  std::string name;
  int line = 0;
};

struct Statement {
  std::optional<Instruction> instruction; ///< exactly one of instruction / label is set
  std::optional<Label> label;
};

/// A variable declaration: module scope (.global .shared .const), function scope (.local .shared
/// .param in call sequences), or a kernel/function parameter.
struct Variable {
  StateSpace space = StateSpace::global;
  std::string type;      ///< "b8", "u32", "f32", "u64", …
  std::size_t align = 0; ///< from .align, else the element size
  int vector_width = 1;  ///< .v2 / .v4
  std::string name;
  /// Element count when declared as an array: x[N] → N; x[] → 0 (.extern .shared); absent for a
  /// scalar.
  std::optional<std::size_t> array_size;
  std::vector<std::uint8_t> init; ///< initializer as little-endian bytes (empty when none)
  /// Initializer entries that are symbol addresses (generic(sym) / sym): byte offset → symbol.
  /// The bytes of `init` at that offset hold the addend (`sym+8` → 8), usually 0.
  std::vector<std::pair<std::size_t, std::string>> init_symbols;
  bool is_extern = false;
  bool is_ptr = false; ///< .param .u64 .ptr… qualifiers
  int line = 0;
  /// Bytes occupied: element size × vector width × max(array_size, 1); 0 for x[].
  [[nodiscard]] std::size_t size_bytes() const;
};

/// `.reg .b32 %r<12>;` → type "b32", name "%r", count 12 (registers %r0..%r11);
/// `.reg .b64 %SP;` → count 0 (a single register named "%SP").
struct RegisterDecl {
  std::string type;
  std::string name;
  int count = 0;
};

struct Function {
  std::string name;
  bool is_entry = false;               ///< .entry (kernel) vs .func
  std::string linkage;                 ///< "visible", "weak", "extern", "" (none)
  std::vector<Variable> params;        ///< parameters in order
  std::vector<Variable> returns;       ///< .func return parameters
  std::vector<RegisterDecl> registers; ///< all scopes, after renaming
  std::vector<Variable> locals;        ///< .local / .shared / .param declared inside the body
  std::vector<Statement> body;
  bool has_body = true; ///< false for `.extern .func vprintf(...)` prototypes
  std::optional<unsigned> maxntid[3];
  std::optional<unsigned> reqntid[3];
  std::optional<unsigned> minnctapersm; ///< .minnctapersm
  std::optional<unsigned> maxnreg;      ///< .maxnreg
  bool noreturn = false;                ///< .noreturn
  int line = 0;

  /// Kernels: each parameter's offset in the parameter buffer (parallel to `params`) and the
  /// buffer's size, as the PTX entry parser (backends/kit) lays them out.
  std::vector<std::size_t> param_offsets;
  std::size_t param_bytes = 0;
};

struct Module {
  std::string version; ///< "8.8"
  std::string target;  ///< "sm_90"
  int address_size = 64;
  std::vector<Variable> globals; ///< module-scope .global / .shared / .const
  std::vector<Function> functions;
  std::map<int, std::string> files; ///< .file N "path"

  /// The function (entry or .func) named `name`, or nullptr; a definition wins over a prototype.
  [[nodiscard]] const Function* find_function(std::string_view name) const;
  /// The module-scope variable named `name`, or nullptr.
  [[nodiscard]] const Variable* find_global(std::string_view name) const;
};

} // namespace gpurun::ptx
