#pragma once
// The decoded form of a PTX module that the interpreter runs: one flat array of instructions for
// all functions, every operand already resolved to a register index (immediates and static
// special registers become read-only registers filled once per warp), labels resolved to
// instruction indices. Nothing here is a string the hot loop has to look at.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpurun::emu {

struct Warp;
struct Inst;

/// Executes one non-control instruction for the lanes in `mask`.
using Handler = void (*)(Warp& warp, const Inst& inst, std::uint32_t mask);

/// Instructions that change which lanes run next are handled by the interpreter loop itself.
enum class Control : std::uint8_t {
  none,
  bra,
  call,
  ret,
  exit,
  bar_sync,
  bar_arrive,
  warp_sync, ///< shfl/vote/redux/bar.warp.sync: waits for the lanes of its member mask
  trap,
  vprintf,
  heap_call,   ///< malloc (target 1) / free (target 2) on the device heap
  assert_fail, ///< the CUDA runtime's __assertfail: prints the GPU's message, ends the launch
};

/// Static special registers: filled into a register slot when a warp starts.
enum class Special : std::uint8_t {
  tid_x,
  tid_y,
  tid_z,
  ntid_x,
  ntid_y,
  ntid_z,
  ctaid_x,
  ctaid_y,
  ctaid_z,
  nctaid_x,
  nctaid_y,
  nctaid_z,
  laneid,
  warpid,
  nwarpid,
  smid,
  nsmid,
  lanemask_eq,
  lanemask_lt,
  lanemask_le,
  lanemask_gt,
  lanemask_ge,
  warpsize,
  gridid,
  // Clusters: a launch without a cluster shape runs every CTA as a cluster of one.
  is_explicit_cluster,
  clusterid_x,
  clusterid_y,
  clusterid_z,
  nclusterid_x,
  nclusterid_y,
  nclusterid_z,
  cluster_ctaid_x,
  cluster_ctaid_y,
  cluster_ctaid_z,
  cluster_nctaid_x,
  cluster_nctaid_y,
  cluster_nctaid_z,
  cluster_ctarank,
  cluster_nctarank,
  // Shared memory sizes of the launch, and the reserved region (kReservedSharedBytes).
  total_smem_size,
  aggr_smem_size,
  dynamic_smem_size,
  reserved_smem_begin,
  reserved_smem_end,
  reserved_smem_cap,
  reserved_smem_0,
  reserved_smem_1,
  /// %pm0…7, %pm0_64…, %envreg0…31, %current_graph_exec: no counters, no driver values, no
  /// graph on the CPU backend.
  zero,
};

/// Shared memory a block has beyond its own, as the driver reserves it on sm_80 and later
/// (cudaDevAttrReservedSharedMemoryPerBlock): %reserved_smem_offset_* point into it, and CUDA's
/// cooperative groups keep their multi-warp scratch there.
inline constexpr std::uint32_t kReservedSharedBytes = 1024;
/// Where %reserved_smem_offset_1 lies in the reserved region (%reserved_smem_offset_0 is its
/// start): the cooperative-groups scratch needs at least 288 bytes from it.
inline constexpr std::uint32_t kReservedSharedSecondOffset = 512;
/// %total_smem_size and %aggr_smem_size count shared memory in this unit on sm_8x and sm_9x.
inline constexpr std::uint32_t kSharedAllocationUnit = 128;

inline constexpr std::uint32_t kNoReg = 0xffffffffu;

/// Inst::flags bits shared by several handlers.
inline constexpr std::uint8_t kFrameRelative = 1; ///< address = local window + frame base + imm
inline constexpr std::uint8_t kNegA = 2;          ///< predicate source a is `!%p`
inline constexpr std::uint8_t kNegB = 4;
inline constexpr std::uint8_t kNegC = 8;

/// Inst::aux of a bar.red: which reduction of its predicate the barrier hands back.
inline constexpr std::uint32_t kBarRedPopc = 1;
inline constexpr std::uint32_t kBarRedAnd = 2;
inline constexpr std::uint32_t kBarRedOr = 3;

/// Memory state space of a decoded access.
enum class Space : std::uint8_t {
  global,
  shared,
  local,
  param_kernel,
  param_frame,
  generic,
  const_
};

struct Inst {
  Handler fn = nullptr;
  Control control = Control::none;
  bool guard_negated = false;
  std::uint8_t width = 0; ///< access size in bytes (ld/st/atom), or operand width
  std::uint8_t vec = 1;   ///< vector elements of ld/st
  Space space = Space::generic;
  std::uint8_t flags = 0;       ///< op-specific (negated predicate sources, …)
  std::uint32_t guard = kNoReg; ///< predicate register index
  std::uint32_t d = kNoReg;     ///< destination (register or predicate)
  std::uint32_t d2 = kNoReg;    ///< second destination (pred of shfl, carry, …)
  std::uint32_t a = kNoReg, b = kNoReg, c = kNoReg, e = kNoReg;   ///< sources
  std::array<std::uint32_t, 4> v{kNoReg, kNoReg, kNoReg, kNoReg}; ///< vector ld/st registers
  std::int64_t imm = 0;                        ///< address displacement, or an op-specific constant
  std::uint64_t mask_bits = ~std::uint64_t{0}; ///< destination register width mask
  std::uint32_t target = 0;                    ///< branch target / callee function index
  std::uint32_t aux = 0;                       ///< op-specific (call site index, …)
  std::uint8_t sync_kind = 0; ///< warp_sync: collectives of one kind may meet at different PCs
  int line = 0;
  int source_file = 0;
  int source_line = 0;
};

/// The element types of tensor-core operands (wmma, mma, ldmatrix).
enum class MatrixType : std::uint8_t { f16, bf16, tf32, f32, f64, s8, u8, s32, b16, e4m3, e5m2 };

/// What a tensor-core instruction needs beyond an Inst: its shape, operand types and the
/// registers of each fragment (up to 16 per operand). Inst::aux indexes Program::matrix_ops.
struct MatrixOp {
  enum class Kind : std::uint8_t { load, store, mma, ldmatrix, stmatrix };
  enum class Use : std::uint8_t { a, b, c };
  Kind kind = Kind::load;
  Use use = Use::a;       ///< load/store: which fragment (store is always c/d)
  bool col_major = false; ///< load/store: the matrix's layout in memory
  bool wmma = true;       ///< wmma (fragment shapes m16n16k16 …) or mma.sync (m16n8k16 …)
  bool trans = false;     ///< ldmatrix/stmatrix .trans
  bool satfinite = false;
  std::uint8_t m = 0, n = 0, k = 0;
  MatrixType type = MatrixType::f16; ///< load/store: the element type
  MatrixType dtype = MatrixType::f32, atype = MatrixType::f16, btype = MatrixType::f16,
             ctype = MatrixType::f32;
  std::vector<std::uint32_t> d, a, b, c; ///< fragment registers (load/store/ldmatrix: d)
};

/// A `.param`/`.local` variable inside a function's frame (per thread, in local memory).
struct FrameVar {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

/// Where the argument and return .param variables of one call live in the caller's frame.
struct CallSite {
  std::uint32_t callee = 0; ///< function index
  std::vector<FrameVar> args;
  std::vector<FrameVar> rets;
};

struct DecodedFunction {
  std::string name;
  bool is_entry = false;
  bool is_vprintf = false; ///< the external vprintf: handled by the host
  bool is_malloc = false;  ///< the external malloc / free: the device heap
  bool is_free = false;
  bool is_assertfail = false; ///< the external __assertfail of a failed device assert
  std::uint32_t begin = 0;    ///< first instruction index
  std::uint32_t end = 0;
  std::uint32_t frame_bytes = 0;              ///< .local depot + .param variables of this function
  std::vector<FrameVar> params;               ///< .func parameters in the frame
  std::vector<FrameVar> returns;              ///< .func return values in the frame
  std::uint32_t reg_begin = 0, reg_end = 0;   ///< this function's register slots
  std::uint32_t pred_begin = 0, pred_end = 0; ///< this function's predicates
  bool recursive = false; ///< on a call-graph cycle: registers are saved across its calls
  /// Kernel parameters: offset and size in the launch's parameter buffer.
  std::vector<FrameVar> kernel_params;
  std::vector<std::size_t> kernel_param_align;
  std::uint32_t kernel_param_bytes = 0;
  std::uint32_t static_shared_bytes = 0;
  std::uint32_t max_threads = 0; ///< .maxntid / .reqntid product (0 = none)
  /// The first instruction of this function the emulator does not implement, as the error
  /// text ("" when none); it was decoded as a trap.
  std::string unsupported;
  /// Kernels: why launching this kernel is refused — the first unsupported instruction in it or
  /// in a function it can call, naming the kernel ("" when it can run).
  std::string cannot_run;
};

/// A module-scope .global/.const variable: the context allocates it and patches the address.
struct ModuleVariable {
  std::string name;
  std::size_t size = 0;
  std::size_t align = 1;
  std::vector<std::uint8_t> init;
  std::vector<std::pair<std::size_t, std::string>> init_symbols;
  bool is_const = false;
};

/// A .shared variable: memcheck checks each access against the variable it starts in.
struct SharedVariable {
  std::string name;
  std::uint32_t offset = 0;
  std::uint32_t size = 0; ///< for the dynamic (extern) one: the launch's dynamic size
  bool dynamic = false;
};

struct Program {
  std::vector<Inst> code;
  std::vector<DecodedFunction> functions;
  std::vector<CallSite> call_sites;
  std::vector<MatrixOp> matrix_ops;
  std::uint32_t register_count = 0;  ///< 64-bit register slots per lane
  std::uint32_t predicate_count = 0; ///< predicate masks per warp
  /// Predicates holding the constants false / true (for `mov.pred %p, 0`), or kNoReg.
  std::uint32_t pred_false = kNoReg;
  std::uint32_t pred_true = kNoReg;
  /// Register slots holding immediates: filled once per warp.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> constants;
  std::vector<std::pair<std::uint32_t, Special>> specials;
  /// Register slots holding a module variable's or shared variable's address, patched at load.
  std::vector<std::pair<std::uint32_t, std::string>> symbol_slots;
  /// Register slots holding the address of a .local variable (frame offset added per lane).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> local_symbol_slots;
  /// Instructions whose `imm` must have a module variable's address added at load.
  std::vector<std::pair<std::uint32_t, std::string>> address_patches;
  std::vector<ModuleVariable> variables;
  std::map<std::string, std::uint32_t> shared_offsets; ///< static module/function .shared
  std::vector<SharedVariable> shared_variables;        ///< by offset; the dynamic one last
  std::uint32_t static_shared_bytes = 0; ///< as declared (what the GPU would allocate)
  std::uint32_t shared_layout_bytes = 0; ///< the emulator's layout, with gaps between variables
  std::uint32_t shared_align = 16;
  /// Per-thread local memory for the deepest call chain (or a fixed stack when recursive).
  std::uint32_t local_bytes_per_thread = 0;
  std::map<int, std::string> files; ///< .file N "path"
  bool uses_heap = false;           ///< calls malloc or free
  /// Reads %reserved_smem_offset_*: blocks get the reserved region after their shared memory.
  bool uses_reserved_shared = false;
};

} // namespace gpurun::emu
