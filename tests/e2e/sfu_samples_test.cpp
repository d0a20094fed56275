// The CPU backend's special-function unit against results recorded on an H200 (tests/data/sfu,
// made by tools/approx/samples.py from measure.sh's and edges.sh's captures): each `.approx`
// instruction the emulator reproduces, run by the real binary in a PTX kernel over every 16th of
// the sparse inputs, 256 inputs of each binade the tables come from, and the edge cases (zeros,
// subnormals, the normal range's ends, infinities, NaN payloads, huge arguments), must give the
// GPU's bits. The full check, every input on a GPU, is tools/approx/verify.sh (docs/sfu.md).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include "base/host_buffer.hpp"
#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

enum class Kind { f32, f64, b16, div };

struct Case {
  const char* name; // the data file's stem
  const char* ptx;  // the instruction
  Kind kind;
};

const Case kCases[] = {
    {"rcp_approx_f32", "rcp.approx.f32", Kind::f32},
    {"rcp_approx_ftz_f32", "rcp.approx.ftz.f32", Kind::f32},
    {"rsqrt_approx_f32", "rsqrt.approx.f32", Kind::f32},
    {"rsqrt_approx_ftz_f32", "rsqrt.approx.ftz.f32", Kind::f32},
    {"sqrt_approx_f32", "sqrt.approx.f32", Kind::f32},
    {"sqrt_approx_ftz_f32", "sqrt.approx.ftz.f32", Kind::f32},
    {"ex2_approx_f32", "ex2.approx.f32", Kind::f32},
    {"ex2_approx_ftz_f32", "ex2.approx.ftz.f32", Kind::f32},
    {"sin_approx_f32", "sin.approx.f32", Kind::f32},
    {"sin_approx_ftz_f32", "sin.approx.ftz.f32", Kind::f32},
    {"cos_approx_f32", "cos.approx.f32", Kind::f32},
    {"cos_approx_ftz_f32", "cos.approx.ftz.f32", Kind::f32},
    {"lg2_approx_f32", "lg2.approx.f32", Kind::f32},
    {"lg2_approx_ftz_f32", "lg2.approx.ftz.f32", Kind::f32},
    {"tanh_approx_f32", "tanh.approx.f32", Kind::f32},
    {"rcp_approx_ftz_f64", "rcp.approx.ftz.f64", Kind::f64},
    {"rsqrt_approx_f64", "rsqrt.approx.f64", Kind::f64},
    {"rsqrt_approx_ftz_f64", "rsqrt.approx.ftz.f64", Kind::f64},
    {"ex2_approx_f16", "ex2.approx.f16", Kind::b16},
    {"ex2_approx_ftz_bf16", "ex2.approx.ftz.bf16", Kind::b16},
    {"tanh_approx_f16", "tanh.approx.f16", Kind::b16},
    {"tanh_approx_bf16", "tanh.approx.bf16", Kind::b16},
    {"div_approx_f32", "div.approx.f32", Kind::div},
    {"div_approx_ftz_f32", "div.approx.ftz.f32", Kind::div},
    {"div_full_f32", "div.full.f32", Kind::div},
    {"div_full_ftz_f32", "div.full.ftz.f32", Kind::div},
};

/// A kernel `k(in, in2, out, n)`: out[i] = OP(in[i]) (or OP(in[i], in2[i]) for division).
std::string kernel(const Case& c) {
  const bool f64 = c.kind == Kind::f64, b16 = c.kind == Kind::b16;
  const char* w = f64 ? "8" : b16 ? "2" : "4";
  const char* b = f64 ? "b64" : b16 ? "b16" : "b32";
  // f16 instructions take .f16 registers, bf16 ones .b16; f32/f64 their own.
  const std::string ptx = c.ptx;
  const char* v = f64   ? "f64"
                  : b16 ? (ptx.find("bf16") != std::string::npos ? "b16" : "f16")
                        : "f32";
  std::string body = std::string("  ld.global.") + b + " %x, [%rd4];\n  mov." + b + " %s, %x;\n";
  if (c.kind == Kind::div)
    body += "  ld.global.b32 %x2, [%rd6];\n  mov.b32 %s2, %x2;\n  " + ptx + " %t, %s, %s2;\n";
  else
    body += "  " + ptx + " %t, %s;\n";
  body += std::string("  mov.") + b + " %y, %t;\n  st.global." + b + " [%rd5], %y;\n";
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(.param .u64 in, .param .u64 in2, .param .u64 out, "
                     ".param .u32 n) {\n"
                     "  .reg .pred %p;\n  .reg .b32 %r<5>, %x2;\n  .reg .b64 %rd<8>;\n"
                     "  .reg .f32 %s2;\n") +
         "  .reg ." + b + " %x, %y;\n  .reg ." + v + " %s, %t;\n" +
         "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  ld.param.u64 %rd7, [in2];\n"
         "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
         "  mov.u32 %r4, %tid.x;\n  mad.lo.u32 %r2, %r2, %r3, %r4;\n"
         "  setp.ge.u32 %p, %r2, %r1;\n  @%p bra DONE;\n"
         "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd2, %rd2;\n"
         "  cvta.to.global.u64 %rd7, %rd7;\n" +
         "  mul.wide.u32 %rd3, %r2, " + w +
         ";\n  add.u64 %rd4, %rd1, %rd3;\n"
         "  add.u64 %rd5, %rd2, %rd3;\n  mul.wide.u32 %rd3, %r2, 4;\n  add.u64 %rd6, %rd7, "
         "%rd3;\n" +
         body + "DONE:\n  ret;\n}\n";
}

template <class T> std::vector<T> column(const HostBuffer& t, std::size_t col) {
  const std::size_t cols = t.shape().at(1), rows = t.shape().at(0);
  std::vector<T> v(rows);
  for (std::size_t r = 0; r < rows; ++r)
    std::memcpy(&v[r], t.data() + (r * cols + col) * sizeof(T), sizeof(T));
  return v;
}

template <class T>
void write_column(const std::filesystem::path& path, const std::vector<T>& v, DType dt) {
  HostBuffer b(dt, {v.size()});
  std::memcpy(b.data(), v.data(), v.size() * sizeof(T));
  write_npy(path, b);
}

template <class T> void check(const Case& c, DType dt) {
  SCOPED_TRACE(c.name);
  const HostBuffer table =
      read_npy(source_dir() / "tests/data/sfu" / (std::string(c.name) + ".npy"));
  const bool div = c.kind == Kind::div;
  const std::vector<T> in = column<T>(table, 0);
  const std::vector<T> in2 = div ? column<T>(table, 1) : std::vector<T>(in.size());
  const std::vector<T> gpu = column<T>(table, div ? 2 : 1);
  const auto dir = temp_dir();
  { std::ofstream(dir / "k.ptx") << kernel(c); }
  // Division: the dividend is column 0, the divisor column 1.
  std::vector<std::uint32_t> second(in.size());
  if constexpr (std::is_same_v<T, std::uint32_t>)
    if (div)
      second = in2;
  write_column(dir / "in.npy", in, dt);
  write_column(dir / "in2.npy", second, DType::u32);
  const std::string n = std::to_string(in.size()), type(dtype_name(dt));
  const auto r = run_gpurun(
      (dir / "k.ptx").string() + " --backend cpu -q --grid " +
      std::to_string((in.size() + 255) / 256) + " --block 256 --arg 'in=" + type + "[" + n + "]:@" +
      (dir / "in.npy").string() + "' --arg 'in2=u32[" + n + "]:@" + (dir / "in2.npy").string() +
      "' --arg 'out=" + type + "[" + n + "]' --arg n=" + n + " --save " + (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const HostBuffer out = read_npy(dir / "out" / "out.npy");
  ASSERT_EQ(out.element_count(), in.size());
  std::size_t mismatches = 0;
  std::string first;
  for (std::size_t i = 0; i < in.size(); ++i) {
    T got;
    std::memcpy(&got, out.data() + i * sizeof(T), sizeof(T));
    if (got != gpu[i] && mismatches++ < 3)
      first += " input " + std::to_string(in[i]) + (div ? "/" + std::to_string(in2[i]) : "") +
               ": gpu " + std::to_string(gpu[i]) + " cpu " + std::to_string(got) + ";";
  }
  EXPECT_EQ(mismatches, 0u) << "of " << in.size() << ":" << first;
}

TEST(SfuSamples, EveryReproducedInstructionGivesTheGpusBits) {
  for (const Case& c : kCases) {
    switch (c.kind) {
    case Kind::f32:
    case Kind::div:
      check<std::uint32_t>(c, DType::u32);
      break;
    case Kind::f64:
      check<std::uint64_t>(c, DType::u64);
      break;
    case Kind::b16:
      check<std::uint16_t>(c, DType::u16);
      break;
    }
  }
}

} // namespace
} // namespace gpurun::test
