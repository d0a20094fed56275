// Tensor-core instructions: wmma.load / wmma.store / wmma.mma, mma.sync, ldmatrix and stmatrix.
// They are warp-wide: every lane holds a piece (a fragment) of each matrix. Where each element
// lives — lane, register, half of a register — is the GPU's own layout, measured on an H200 for
// wmma (tests/data/tensor/layout.cu, captured by scripts/tensor/run.sh) and as the PTX ISA
// documents it for mma.sync and ldmatrix; the arithmetic is that of detail/numeric_mma.hpp.
// docs/tensor-cores.md has both.
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/detail/numeric_mma.hpp"
#include "backends/cpu/emu/memory_access.hpp"

namespace gpurun::emu {

namespace {

namespace nm = numeric;
using Use = MatrixOp::Use;

struct Coord {
  int row = 0;
  int col = 0;
};

// ---- where element i of a lane's fragment lies in its matrix ----------------------------------
// g = lane / 4 (the lane's group), q = lane % 4 (its place in the group); b0…b3 are the bits of i.

Coord coord_a(const MatrixOp& op, MatrixType t, int g, int q, int i) {
  const int b0 = i & 1, b1 = (i >> 1) & 1, b2 = (i >> 2) & 1, b3 = (i >> 3) & 1;
  switch (t) {
  case MatrixType::tf32:
    return op.k == 4 ? Coord{g + 8 * b0, q} : Coord{g + 8 * b0, q + 4 * b1};
  case MatrixType::f64:
    return {g, q};
  case MatrixType::s8:
  case MatrixType::u8:
  case MatrixType::e4m3:
  case MatrixType::e5m2:
    if (op.k == 32)
      return {g + 8 * b2, 4 * q + (i & 3) + 16 * b3};
    if (op.m == 32)
      return {g + 8 * b2 + 16 * b3, 4 * q + (i & 3)};
    if (op.m == 8)
      return {g, 4 * q + (i & 3)};
    return {g + 8 * b2, 4 * q + (i & 3)};
  default: // f16, bf16
    if (op.k == 8)
      return {g + 8 * b1, 2 * q + b0};
    if (op.m == 32)
      return {g + 8 * b1 + 16 * b3, 2 * q + b0 + 8 * b2};
    if (op.m == 8)
      return {g, 2 * q + b0 + 8 * b1};
    return {g + 8 * b1, 2 * q + b0 + 8 * b2};
  }
}

Coord coord_b(const MatrixOp& op, MatrixType t, int g, int q, int i) { // {k, n}
  const int b0 = i & 1, b1 = (i >> 1) & 1, b2 = (i >> 2) & 1, b3 = (i >> 3) & 1;
  switch (t) {
  case MatrixType::tf32:
    if (op.k == 4)
      return {q, g};
    return op.n == 16 ? Coord{q + 4 * b0, g + 8 * b1} : Coord{q + 4 * b0, g};
  case MatrixType::f64:
    return {q, g};
  case MatrixType::s8:
  case MatrixType::u8:
  case MatrixType::e4m3:
  case MatrixType::e5m2:
    if (op.k == 32)
      return {4 * q + (i & 3) + 16 * b2, g};
    if (op.n == 32)
      return {4 * q + (i & 3), g + 8 * (i >> 2)};
    if (op.n == 16)
      return {4 * q + (i & 3), g + 8 * b2};
    return {4 * q + (i & 3), g};
  default: // f16, bf16
    if (op.k == 8)
      return {2 * q + b0, g};
    if (op.n == 32)
      return {2 * q + b0 + 8 * b2, g + 8 * b1 + 16 * b3};
    if (op.n == 16)
      return {2 * q + b0 + 8 * b1, g + 8 * b2};
    return {2 * q + b0 + 8 * b1, g};
  }
}

Coord coord_c(const MatrixOp& op, int g, int q, int i) {
  const int b0 = i & 1, b1 = (i >> 1) & 1, b2 = (i >> 2) & 1;
  if (op.m == 8 && op.n == 8)
    return {g, 2 * q + b0};
  if (op.m == 32)
    return {g + 8 * (i >> 1), 2 * q + b0};
  if (op.m == 8)
    return {2 * q + b0, g + 8 * (i >> 1)};
  if (op.n == 16)
    return {g + 8 * b1, 2 * q + b0 + 8 * b2};
  return {g + 8 * b1, 2 * q + b0};
}

Coord coord(const MatrixOp& op, Use use, MatrixType t, int lane, int i) {
  const int g = lane >> 2, q = lane & 3;
  switch (use) {
  case Use::a:
    return coord_a(op, t, g, q, i);
  case Use::b:
    return coord_b(op, t, g, q, i);
  default:
    return coord_c(op, g, q, i);
  }
}

unsigned element_bytes(MatrixType t) {
  switch (t) {
  case MatrixType::s8:
  case MatrixType::u8:
  case MatrixType::e4m3:
  case MatrixType::e5m2:
    return 1;
  case MatrixType::f16:
  case MatrixType::bf16:
  case MatrixType::b16:
    return 2;
  case MatrixType::f64:
    return 8;
  default:
    return 4;
  }
}

bool is_int8(MatrixType t) {
  return t == MatrixType::s8 || t == MatrixType::u8;
}

bool is_fp8(MatrixType t) {
  return t == MatrixType::e4m3 || t == MatrixType::e5m2;
}

/// Elements one fragment register holds: two halves, four bytes, or one value.
unsigned per_register(MatrixType t) {
  const unsigned bytes = element_bytes(t);
  return bytes >= 4 ? 1 : 4 / bytes;
}

// The matrix a fragment belongs to: rows × cols.
Coord extent(const MatrixOp& op, Use use) {
  switch (use) {
  case Use::a:
    return {op.m, op.k};
  case Use::b:
    return {op.k, op.n};
  default:
    return {op.m, op.n};
  }
}

void require_full_warp(const Warp& w, std::uint32_t mask, std::string_view what) {
  if (mask != 0xffffffffu)
    throw Fault{fmt::format("ran {} with {} of the warp's 32 lanes (a warp-wide instruction "
                            "needs every lane of the warp, converged)",
                            what, std::popcount(mask)),
                std::countr_zero(~mask) & 31};
}

std::uint64_t element_bits(const Warp& w, const std::vector<std::uint32_t>& regs, MatrixType t,
                           int lane, int i) {
  const unsigned per = per_register(t), bits = 8 * element_bytes(t);
  std::uint64_t v = w.regs[std::size_t{regs[i / per]} * kWarpSize + lane];
  if (per > 1)
    v = (v >> (bits * (i % per))) & ((std::uint64_t{1} << bits) - 1);
  return v;
}

// ---- wmma.load / wmma.store --------------------------------------------------------------------

std::uint64_t stride_of(const Warp& w, const Inst& in, const MatrixOp& op, Use use, int lane) {
  if (in.b != kNoReg)
    return w.regs[std::size_t{in.b} * kWarpSize + lane] & 0xffffffffu;
  const Coord e = extent(op, use);
  return static_cast<std::uint64_t>(op.col_major ? e.row : e.col);
}

template <bool Store> void matrix_access(Warp& w, const Inst& in, std::uint32_t mask) {
  const MatrixOp& op = w.block->launch->program->matrix_ops[in.aux];
  require_full_warp(w, mask, Store ? "wmma.store" : "wmma.load");
  const Use use = Store ? Use::c : op.use;
  const unsigned bytes = element_bytes(op.type), per = per_register(op.type);
  const int elements = static_cast<int>(op.d.size() * per);
  for (int l = 0; l < kWarpSize; ++l) {
    const std::uint64_t base = lane_address(w, in, l);
    const std::uint64_t ldm = stride_of(w, in, op, use, l);
    std::array<std::uint64_t, 16> regs{};
    for (int i = 0; i < elements; ++i) {
      const Coord c = coord(op, use, op.type, l, i);
      const std::uint64_t index = op.col_major ? std::uint64_t(c.col) * ldm + std::uint64_t(c.row)
                                               : std::uint64_t(c.row) * ldm + std::uint64_t(c.col);
      const std::uint64_t address = base + index * bytes;
      if (address & (bytes - 1))
        throw_misaligned(w, l, address, bytes);
      std::byte* p = translate(w, in.space, address, bytes, l, Store);
      const unsigned shift = 8 * bytes * (i % per);
      if constexpr (Store) {
        const std::uint64_t v = element_bits(w, op.d, op.type, l, i);
        std::memcpy(p, &v, bytes);
      } else {
        std::uint64_t v = 0;
        std::memcpy(&v, p, bytes);
        regs[i / per] |= v << shift;
      }
    }
    if constexpr (!Store)
      for (std::size_t r = 0; r < op.d.size(); ++r)
        w.regs[std::size_t{op.d[r]} * kWarpSize + l] = regs[r];
  }
}

// ---- wmma.mma / mma.sync ------------------------------------------------------------------------

float float_value(std::uint64_t bits, MatrixType t) {
  switch (t) {
  case MatrixType::f16:
    return nm::f16_to_f32(nm::Half{static_cast<std::uint16_t>(bits)});
  case MatrixType::bf16:
    return nm::bf16_to_f32(nm::BFloat16{static_cast<std::uint16_t>(bits)});
  case MatrixType::tf32:
    return nm::tf32_operand(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  case MatrixType::e4m3:
  case MatrixType::e5m2:
    return nm::f16_to_f32(nm::fp8_to_f16(static_cast<std::uint8_t>(bits),
                                         t == MatrixType::e4m3 ? nm::Fp8::e4m3 : nm::Fp8::e5m2,
                                         false));
  default:
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
  }
}

std::int32_t int_value(std::uint64_t bits, MatrixType t) {
  switch (t) {
  case MatrixType::s8:
    return static_cast<std::int8_t>(bits);
  case MatrixType::u8:
    return static_cast<std::uint8_t>(bits);
  default:
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
  }
}

constexpr int kMaxDim = 32;

// One operand gathered from every lane's fragment, as a dense row-major matrix.
template <class T> struct Dense {
  std::array<T, kMaxDim * kMaxDim> v{};
  T& at(Coord c) { return v[static_cast<std::size_t>(c.row * kMaxDim + c.col)]; }
};

template <class T, class Value>
void gather(const Warp& w, const MatrixOp& op, Use use, MatrixType t,
            const std::vector<std::uint32_t>& regs, Dense<T>& out, Value value) {
  const int elements = static_cast<int>(regs.size() * per_register(t));
  for (int l = 0; l < kWarpSize; ++l)
    for (int i = 0; i < elements; ++i)
      out.at(coord(op, use, t, l, i)) = value(element_bits(w, regs, t, l, i));
}

using Outputs = std::array<std::array<std::uint64_t, 16>, kWarpSize>;

// A, B and C gathered from every lane's fragment (each element through `value`), then each of D's
// elements as `dot(row of A, column of B, its C)`, in the bits D's register holds.
template <class T, class Value, class Dot>
void products(const Warp& w, const MatrixOp& op, Value value, Dot dot, Outputs& out) {
  Dense<T> a, b, c;
  gather(w, op, Use::a, op.atype, op.a, a, [&](std::uint64_t v) { return value(v, op.atype); });
  gather(w, op, Use::b, op.btype, op.b, b, [&](std::uint64_t v) { return value(v, op.btype); });
  gather(w, op, Use::c, op.ctype, op.c, c, [&](std::uint64_t v) { return value(v, op.ctype); });
  const int elements = static_cast<int>(op.d.size() * per_register(op.dtype));
  for (int l = 0; l < kWarpSize; ++l)
    for (int i = 0; i < elements; ++i) {
      const Coord at = coord(op, Use::c, op.dtype, l, i);
      std::array<T, kMaxDim> row{}, col{};
      for (int k = 0; k < op.k; ++k) {
        row[k] = a.at({at.row, k});
        col[k] = b.at({k, at.col});
      }
      out[l][i] = dot(row.data(), col.data(), c.at(at));
    }
}

void mma(Warp& w, const Inst& in, std::uint32_t mask) {
  const MatrixOp& op = w.block->launch->program->matrix_ops[in.aux];
  require_full_warp(w, mask, op.wmma ? "wmma.mma" : "mma.sync");
  Outputs out{};
  if (is_int8(op.atype)) {
    products<std::int32_t>(
        w, op, int_value,
        [&](const std::int32_t* a, const std::int32_t* b, std::int32_t c) {
          return std::uint64_t{
              static_cast<std::uint32_t>(nm::mma_dot_s32(a, b, op.k, c, op.satfinite))};
        },
        out);
  } else if (op.atype == MatrixType::f64) {
    products<double>(
        w, op, [](std::uint64_t v, MatrixType) { return std::bit_cast<double>(v); },
        [&](const double* a, const double* b, double c) {
          return std::bit_cast<std::uint64_t>(nm::mma_dot_f64(a, b, op.k, c));
        },
        out);
  } else {
    const nm::MmaFormat format = op.atype == MatrixType::f16    ? nm::kMmaF16
                                 : op.atype == MatrixType::bf16 ? nm::kMmaBf16
                                                                : nm::kMmaTf32;
    // wmma's m16n16k8 tf32 sums its k in two blocks of 4; mma.sync's m16n8k8 all 8 at once.
    const int block = op.atype == MatrixType::tf32 && op.wmma ? 4 : 16;
    products<float>(
        w, op, float_value,
        [&](const float* a, const float* b, float c) {
          if (is_fp8(op.atype))
            return std::uint64_t{std::bit_cast<std::uint32_t>(nm::mma_dot_fp8(a, b, c))};
          if (op.dtype == MatrixType::f16)
            return std::uint64_t{nm::mma_dot_f16(a, b, op.k, c, format).bits};
          return std::uint64_t{
              std::bit_cast<std::uint32_t>(nm::mma_dot_f32(a, b, op.k, c, format, block))};
        },
        out);
  }

  // Registers are written after every input was read: d may name c's registers.
  const unsigned per = per_register(op.dtype), bits = 8 * element_bytes(op.dtype);
  for (int l = 0; l < kWarpSize; ++l)
    for (std::size_t r = 0; r < op.d.size(); ++r) {
      std::uint64_t v = 0;
      for (unsigned e = 0; e < per; ++e)
        v |= out[l][r * per + e] << (bits * e);
      w.regs[std::size_t{op.d[r]} * kWarpSize + l] = v;
    }
}

// ---- ldmatrix / stmatrix -----------------------------------------------------------------------
// Matrix j (of 1, 2 or 4) is 8 rows of 8 b16 values; lane 8j + r gives the address of its row r.
// Register j of lane l holds row l/4, columns 2(l%4) and 2(l%4)+1; with .trans, column l/4 of
// rows 2(l%4) and 2(l%4)+1.

template <bool Store> void matrix_rows(Warp& w, const Inst& in, std::uint32_t mask) {
  const MatrixOp& op = w.block->launch->program->matrix_ops[in.aux];
  require_full_warp(w, mask, Store ? "stmatrix" : "ldmatrix");
  std::uint64_t row_address[kWarpSize];
  for (int l = 0; l < kWarpSize; ++l)
    row_address[l] = lane_address(w, in, l);
  for (int j = 0; j < static_cast<int>(op.d.size()); ++j)
    for (int l = 0; l < kWarpSize; ++l) {
      std::uint64_t* reg = &w.regs[std::size_t{op.d[j]} * kWarpSize + l];
      for (int half = 0; half < 2; ++half) {
        const int row = op.trans ? 2 * (l & 3) + half : l >> 2;
        const int col = op.trans ? l >> 2 : 2 * (l & 3) + half;
        const int src = 8 * j + row;
        const std::uint64_t address = row_address[src] + 2 * static_cast<std::uint64_t>(col);
        if (row_address[src] & 15)
          throw_misaligned(w, src, row_address[src], 16);
        std::byte* p = translate(w, in.space, address, 2, src, Store);
        std::uint16_t v = 0;
        if constexpr (Store) {
          v = static_cast<std::uint16_t>(*reg >> (16 * half));
          std::memcpy(p, &v, 2);
        } else {
          std::memcpy(&v, p, 2);
          *reg = half ? (*reg & 0xffffu) | std::uint64_t{v} << 16 : v;
        }
      }
    }
}

// ---- decoding -----------------------------------------------------------------------------------

bool parse_shape(std::string_view s, MatrixOp& op) {
  int m = 0, n = 0, k = 0;
  if (std::sscanf(std::string(s).c_str(), "m%dn%dk%d", &m, &n, &k) != 3 || m <= 0 || n <= 0 ||
      k <= 0 || m > kMaxDim || n > kMaxDim || k > kMaxDim)
    return false;
  op.m = static_cast<std::uint8_t>(m);
  op.n = static_cast<std::uint8_t>(n);
  op.k = static_cast<std::uint8_t>(k);
  return true;
}

std::optional<MatrixType> matrix_type(std::string_view s) {
  static constexpr std::pair<std::string_view, MatrixType> k_types[] = {
      {"f16", MatrixType::f16},   {"bf16", MatrixType::bf16}, {"tf32", MatrixType::tf32},
      {"f32", MatrixType::f32},   {"f64", MatrixType::f64},   {"s8", MatrixType::s8},
      {"u8", MatrixType::u8},     {"s32", MatrixType::s32},   {"b16", MatrixType::b16},
      {"e4m3", MatrixType::e4m3}, {"e5m2", MatrixType::e5m2}};
  for (const auto& [name, t] : k_types)
    if (name == s)
      return t;
  return std::nullopt;
}

/// The type modifiers in source order (consumed), and the shape.
std::vector<MatrixType> take_matrix_types(const ptx::Instruction& in, Modifiers& m, MatrixOp& op,
                                          bool& shape) {
  std::vector<MatrixType> types;
  for (const std::string& mod : in.modifiers) {
    if (auto t = matrix_type(mod); t && m.take(mod))
      types.push_back(*t);
    else if (!mod.empty() && mod[0] == 'm' && parse_shape(mod, op) && m.take(mod))
      shape = true;
  }
  return types;
}

std::vector<std::uint32_t> fragment(const ptx::Instruction& in, const ptx::Operand& v,
                                    OperandDecoder& od, bool dst, Type t) {
  if (v.kind != ptx::Operand::Kind::vector || v.elements.empty() || v.elements.size() > 16)
    throw_unsupported(in, "expected a vector of fragment registers");
  std::vector<std::uint32_t> regs;
  for (const auto& e : v.elements) {
    regs.push_back(dst ? od.dst(e) : od.src(e, t));
    if (regs.back() == kNoReg)
      throw_unsupported(in, "a fragment register is the sink");
  }
  return regs;
}

Space take_space(Modifiers& m) {
  auto s = m.take_any({"global", "shared", "generic"});
  (void)m.take_any({"cta"});
  return s == "global" ? Space::global : s == "shared" ? Space::shared : Space::generic;
}

// The shapes and type combinations implemented; anything else stays an unsupported instruction.
bool valid_mma(const MatrixOp& op) {
  const auto shape = [&](int m, int n, int k) { return op.m == m && op.n == n && op.k == k; };
  const bool acc = (op.dtype == MatrixType::f32 || op.dtype == MatrixType::f16) &&
                   (op.ctype == MatrixType::f32 || op.ctype == MatrixType::f16);
  if (op.atype != op.btype && !(is_int8(op.atype) && is_int8(op.btype)) &&
      !(is_fp8(op.atype) && is_fp8(op.btype)))
    return false;
  switch (op.atype) {
  case MatrixType::e4m3:
  case MatrixType::e5m2:
    return !op.wmma && op.dtype == MatrixType::f32 && op.ctype == MatrixType::f32 &&
           shape(16, 8, 32);
  case MatrixType::f16:
    // mma.sync's result and accumulator have one type (ptxas refuses the others); wmma mixes.
    return acc && (op.wmma || op.dtype == op.ctype) &&
           (op.wmma ? shape(16, 16, 16) || shape(32, 8, 16) || shape(8, 32, 16)
                    : shape(16, 8, 16) || shape(16, 8, 8));
  case MatrixType::bf16:
    return op.dtype == MatrixType::f32 && op.ctype == MatrixType::f32 &&
           (op.wmma ? shape(16, 16, 16) || shape(32, 8, 16) || shape(8, 32, 16)
                    : shape(16, 8, 16) || shape(16, 8, 8));
  case MatrixType::tf32:
    return op.dtype == MatrixType::f32 && op.ctype == MatrixType::f32 &&
           (op.wmma ? shape(16, 16, 8) : shape(16, 8, 8) || shape(16, 8, 4));
  case MatrixType::f64:
    return op.dtype == MatrixType::f64 && op.ctype == MatrixType::f64 && shape(8, 8, 4);
  case MatrixType::s8:
  case MatrixType::u8:
    return op.dtype == MatrixType::s32 && op.ctype == MatrixType::s32 &&
           (op.wmma ? shape(16, 16, 16) || shape(32, 8, 16) || shape(8, 32, 16)
                    : shape(16, 8, 16) || shape(16, 8, 32) || shape(8, 8, 16));
  default:
    return false;
  }
}

// A wmma.load/store fragment of a shape and type the layouts above describe.
bool valid_fragment(const MatrixOp& op) {
  MatrixOp mma = op;
  if (op.use == Use::c) {
    // The accumulator types go with one input type each (f16/f32 with f16, s32 with 8-bit).
    mma.dtype = mma.ctype = op.type;
    mma.atype = mma.btype = op.type == MatrixType::s32              ? MatrixType::s8
                            : op.type == MatrixType::f64            ? MatrixType::f64
                            : op.m == 16 && op.n == 16 && op.k == 8 ? MatrixType::tf32
                                                                    : MatrixType::f16;
  } else {
    mma.atype = mma.btype = op.type;
    mma.dtype = mma.ctype = is_int8(op.type)             ? MatrixType::s32
                            : op.type == MatrixType::f64 ? MatrixType::f64
                                                         : MatrixType::f32;
  }
  return valid_mma(mma);
}

// Registers each operand must have: elements of the matrix per lane / elements per register.
// f16 wmma fragments of a and b carry 16 elements (a copy of each), as the GPU's do.
std::size_t fragment_registers(const MatrixOp& op, Use use, MatrixType t) {
  const Coord e = extent(op, use);
  std::size_t elements = static_cast<std::size_t>(e.row * e.col) / kWarpSize;
  if (op.wmma && t == MatrixType::f16 && use != Use::c)
    elements = 16;
  return elements / per_register(t);
}

Type register_type(MatrixType t) {
  return t == MatrixType::f64 ? Type::b64 : Type::b32;
}

// The d, a, b, c operands of wmma.mma / mma.sync, once the shape and types are known: a
// combination outside the implemented set, or a fragment of the wrong size, is unsupported.
void mma_fragments(const ptx::Instruction& in, OperandDecoder& od, MatrixOp& op) {
  if (!valid_mma(op))
    throw_unsupported(in, "this shape and type combination is not implemented");
  const OperandList ops(in);
  op.d = fragment(in, ops[0], od, true, register_type(op.dtype));
  op.a = fragment(in, ops[1], od, false, register_type(op.atype));
  op.b = fragment(in, ops[2], od, false, register_type(op.btype));
  op.c = fragment(in, ops[3], od, false, register_type(op.ctype));
  if (op.d.size() != fragment_registers(op, Use::c, op.dtype) ||
      op.a.size() != fragment_registers(op, Use::a, op.atype) ||
      op.b.size() != fragment_registers(op, Use::b, op.btype) ||
      op.c.size() != fragment_registers(op, Use::c, op.ctype))
    throw_unsupported(in, "fragment register count");
}

bool select_wmma(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  MatrixOp op;
  op.wmma = true;
  const OperandList ops(in);
  const auto verb = m.take_any({"load", "store", "mma"});
  (void)m.take("sync");
  (void)m.take("aligned");
  if (verb == "mma") {
    op.kind = MatrixOp::Kind::mma;
    (void)m.take_any({"row", "col"}); // every fragment has one register layout on sm_80+
    (void)m.take_any({"row", "col"});
    op.satfinite = m.take("satfinite");
    (void)m.take("rn");
    bool shape = false;
    auto types = take_matrix_types(in, m, op, shape);
    if (types.size() == 2) // f16 inputs: only the d and c types are written
      types = {types[0], MatrixType::f16, MatrixType::f16, types[1]};
    if (!shape || types.size() != 4 || ops.size() != 4)
      throw_unsupported(in);
    op.dtype = types[0];
    op.atype = types[1];
    op.btype = types[2];
    op.ctype = types[3];
  } else if (verb == "load" || verb == "store") {
    op.kind = verb == "load" ? MatrixOp::Kind::load : MatrixOp::Kind::store;
    const auto use = verb == "load" ? m.take_any({"a", "b", "c"}) : m.take_any({"d"});
    op.use = use == "a" ? Use::a : use == "b" ? Use::b : Use::c;
    const auto layout = m.take_any({"row", "col"});
    op.col_major = layout == "col";
    out.space = take_space(m);
    bool shape = false;
    auto types = take_matrix_types(in, m, op, shape);
    if (use.empty() || layout.empty() || !shape || types.size() != 1 || ops.size() < 2 ||
        ops.size() > 3)
      throw_unsupported(in);
    op.type = types[0];
  } else {
    throw_unsupported(in);
  }

  if (op.kind == MatrixOp::Kind::mma) {
    mma_fragments(in, od, op);
    out.fn = &mma;
  } else {
    const bool load = op.kind == MatrixOp::Kind::load;
    const ptx::Operand& regs = load ? ops[0] : ops[1];
    op.d = fragment(in, regs, od, load, register_type(op.type));
    od.address(load ? ops[1] : ops[0], out);
    if (ops.size() == 3)
      out.b = od.src(ops[2], Type::u32);
    if (!valid_fragment(op))
      throw_unsupported(in, "this shape and type combination is not implemented");
    if (op.d.size() != fragment_registers(op, op.use, op.type))
      throw_unsupported(in, "fragment register count");
    out.fn = load ? &matrix_access<false> : &matrix_access<true>;
  }
  out.aux = od.add_matrix_op(std::move(op));
  return true;
}

bool select_mma_sync(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  MatrixOp op;
  op.wmma = false;
  op.kind = MatrixOp::Kind::mma;
  (void)m.take("sync");
  (void)m.take("aligned");
  const bool row = m.take("row"), col = m.take("col");
  op.satfinite = m.take("satfinite");
  bool shape = false;
  auto types = take_matrix_types(in, m, op, shape);
  // Every implemented shape is .row.col (m8n8k4 with .f16, the Volta form, is not implemented).
  if (!shape || types.size() != 4 || in.operands.size() != 4 || !row || !col)
    throw_unsupported(in);
  op.dtype = types[0];
  op.atype = types[1];
  op.btype = types[2];
  op.ctype = types[3];
  mma_fragments(in, od, op);
  out.fn = &mma;
  out.aux = od.add_matrix_op(std::move(op));
  return true;
}

bool select_matrix_rows(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const bool load = in.opcode == "ldmatrix";
  MatrixOp op;
  op.kind = load ? MatrixOp::Kind::ldmatrix : MatrixOp::Kind::stmatrix;
  (void)m.take("sync");
  (void)m.take("aligned");
  const auto count = m.take_any({"x1", "x2", "x4"});
  op.trans = m.take("trans");
  out.space = take_space(m);
  if (!m.take("m8n8") || count.empty() || !m.take("b16") || in.operands.size() != 2)
    throw_unsupported(in);
  const OperandList ops(in);
  op.d = fragment(in, load ? ops[0] : ops[1], od, load, Type::b32);
  if (op.d.size() != static_cast<std::size_t>(count[1] - '0'))
    throw_unsupported(in, "register count");
  od.address(load ? ops[1] : ops[0], out);
  out.fn = load ? &matrix_rows<false> : &matrix_rows<true>;
  out.aux = od.add_matrix_op(std::move(op));
  return true;
}

} // namespace

bool select_tensor(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  if (in.opcode == "wmma")
    return select_wmma(in, m, od, out);
  if (in.opcode == "mma")
    return select_mma_sync(in, m, od, out);
  if (in.opcode == "ldmatrix" || in.opcode == "stmatrix")
    return select_matrix_rows(in, m, od, out);
  return false;
}

} // namespace gpurun::emu
