// Funnel shifts (shf) and three-input logic (lop3): NVRTC emits both for rotates, hashes and
// bit-field code.
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

template <bool Left, nm::ShfMode M> void shf(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    auto x = static_cast<std::uint32_t>(a[l]), y = static_cast<std::uint32_t>(b[l]),
         n = static_cast<std::uint32_t>(c[l]);
    d[l] = Left ? nm::shf_l(x, y, n, M) : nm::shf_r(x, y, n, M);
  });
}

void lop3(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b), *c = w.reg(in.c);
  std::uint64_t* d = w.reg(in.d);
  auto lut = static_cast<std::uint8_t>(in.imm);
  each_lane(mask, [&](int l) {
    d[l] = nm::lop3(static_cast<std::uint32_t>(a[l]), static_cast<std::uint32_t>(b[l]),
                    static_cast<std::uint32_t>(c[l]), lut);
  });
}

} // namespace

bool select_bits(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  const OperandList ops(in);
  if (in.opcode == "shf") {
    auto dir = m.take_any({"l", "r"});
    auto mode = m.take_any({"clamp", "wrap"});
    if (dir.empty() || mode.empty() || !m.take("b32") || ops.size() != 4)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::b32);
    out.b = od.src(ops[2], Type::b32);
    out.c = od.src(ops[3], Type::u32);
    bool left = dir == "l";
    bool clamp = mode == "clamp";
    using SM = nm::ShfMode;
    out.fn = left ? (clamp ? &shf<true, SM::clamp> : &shf<true, SM::wrap>)
                  : (clamp ? &shf<false, SM::clamp> : &shf<false, SM::wrap>);
    return true;
  }
  if (in.opcode == "lop3") {
    if (!m.take("b32") || ops.size() != 5 || ops[4].kind != ptx::Operand::Kind::imm_int)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::b32);
    out.b = od.src(ops[2], Type::b32);
    out.c = od.src(ops[3], Type::b32);
    out.imm = static_cast<std::int64_t>(ops[4].bits & 0xff);
    out.fn = &lop3;
    return true;
  }
  return false;
}

} // namespace gpurun::emu
