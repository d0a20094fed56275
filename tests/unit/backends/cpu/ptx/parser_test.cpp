// The parser on hand-written PTX: every operand kind, declarations, scopes and error messages.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "backends/cpu/ptx/literals.hpp"
#include "base/error.hpp"
#include "fixture_helpers.hpp"

namespace gpurun::ptx::test {
namespace {

using Kind = Operand::Kind;

constexpr const char* kHeader = ".version 8.8\n.target sm_90\n.address_size 64\n";

// Wraps `body` in an entry with the usual registers; the body starts on line 10.
Module parse_body(const std::string& body, const std::string& extra_regs = "") {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k(.param .u64 k_p0)\n"
                           "{\n"
                           ".reg .pred %p<4>;\n"
                           ".reg .b32 %r<10>;\n"
                           ".reg .b64 %rd<10>;\n" +
                           (extra_regs.empty() ? "\n" : extra_regs + "\n") + body + "\n}\n";
  return parse_module(text, "test.ptx");
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_module(text, "bad.ptx");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::compile);
    return e.what();
  }
  return "(no error)";
}

TEST(Parser, ImmediatesInEveryBase) {
  const Module m = parse_body("mov.u32 %r1, 0x1F;\nmov.u32 %r1, 017;\nmov.u32 %r1, 0b101;\n"
                              "mov.u32 %r1, -5;\nmov.u32 %r1, 42U;\nmov.u64 %rd1, "
                              "0xFFFFFFFFFFFFFFFF;");
  std::vector<std::uint64_t> values;
  for (const Statement& s : m.functions[0].body) {
    ASSERT_EQ(s.instruction->operands[1].kind, Kind::imm_int);
    values.push_back(s.instruction->operands[1].bits);
  }
  EXPECT_EQ(values,
            (std::vector<std::uint64_t>{31, 15, 5, static_cast<std::uint64_t>(-5), 42, ~0ull}));
}

// CUDA's cooperative_groups headers declare registers without '%' in inline asm; a name that the
// function declared as a register is a register, every other bare name stays a symbol.
TEST(Parser, RegistersMayBeNamedWithoutPercent) {
  const Module m = parse_body("{\n.reg .u32 start;\n.reg .u64 extended, r_<2>;\n.reg .pred p;\n"
                              "mov.u32 start, %reserved_smem_offset_1;\n"
                              "cvt.u64.u32 extended, start;\n"
                              "setp.ne.u32 p|p, start, 0;\n"
                              "@!p ld.global.u32 start, [extended+4];\n"
                              "mov.u64 r_1, k_p0;\n}\n"
                              "{\n.reg .u32 start;\nmov.u32 start, 1;\n}");
  const auto& b = m.functions[0].body;
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b[0].instruction->operands[0].kind, Kind::reg);
  EXPECT_EQ(b[0].instruction->operands[1].kind, Kind::special);
  EXPECT_EQ(b[1].instruction->operands[0].kind, Kind::reg);
  EXPECT_EQ(b[1].instruction->operands[1].kind, Kind::reg);
  EXPECT_EQ(b[1].instruction->operands[1].name, "start");
  EXPECT_EQ(b[2].instruction->operands[0].kind, Kind::pred_pair);
  EXPECT_EQ(b[3].instruction->guard, "p");
  EXPECT_TRUE(b[3].instruction->guard_negated);
  EXPECT_EQ(b[3].instruction->operands[1].kind, Kind::address);
  EXPECT_EQ(b[3].instruction->operands[1].name, "extended");
  EXPECT_EQ(b[4].instruction->operands[0].kind, Kind::reg);    // a range member
  EXPECT_EQ(b[4].instruction->operands[1].kind, Kind::symbol); // the kernel parameter
  // The second scope's `start` is another register.
  EXPECT_EQ(b[5].instruction->operands[0].kind, Kind::reg);
  EXPECT_NE(b[5].instruction->operands[0].name, "start");
}

TEST(Parser, PercentOrDollarAloneIsNotAnIdentifier) {
  EXPECT_NE(error_of(std::string(kHeader) + ".visible .entry k()\n{\n  mov.u32 %, 1;\n}\n")
                .find("bad.ptx:6: '%' must be followed by"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kHeader) + ".visible .entry k()\n{\n  bra $;\n}\n")
                .find("'$' must be followed by"),
            std::string::npos);
}

TEST(Parser, FloatImmediates) {
  const Module m = parse_body(".reg .f32 %f<3>;\n.reg .f64 %fd<3>;\n"
                              "mov.f32 %f1, 0f3F800000;\nmov.f32 %f1, -0f3F800000;\n"
                              "mov.f64 %fd1, 0d4000000000000000;\nmov.f32 %f1, 1.5;\n"
                              "mov.f64 %fd1, 0.1;\nmov.f64 %fd1, -2.5e-3;");
  const auto& b = m.functions[0].body;
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b[0].instruction->operands[1].kind, Kind::imm_f32);
  EXPECT_EQ(b[0].instruction->operands[1].bits, 0x3F800000u);
  EXPECT_EQ(b[1].instruction->operands[1].bits, 0xBF800000u);
  EXPECT_EQ(b[2].instruction->operands[1].kind, Kind::imm_f64);
  EXPECT_EQ(b[2].instruction->operands[1].bits, 0x4000000000000000ull);
  EXPECT_EQ(b[3].instruction->operands[1].kind, Kind::imm_f32);
  EXPECT_EQ(b[3].instruction->operands[1].bits, f32_bits(1.5f));
  // A decimal literal in an f64 instruction keeps double precision.
  EXPECT_EQ(b[4].instruction->operands[1].kind, Kind::imm_f64);
  EXPECT_EQ(b[4].instruction->operands[1].bits, f64_bits(0.1));
  EXPECT_EQ(b[5].instruction->operands[1].bits, f64_bits(-2.5e-3));
}

TEST(Parser, AddressForms) {
  const Module m = parse_body("ld.global.u32 %r1, [%rd1];\nld.global.u32 %r1, [%rd1+16];\n"
                              "ld.global.u32 %r1, [%rd1+-4];\nld.global.u32 %r1, [%rd1-8];\n"
                              "ld.param.u64 %rd1, [k_p0];\nld.global.u32 %r1, [gv+8];\n"
                              "ld.global.u32 %r1, [4096];");
  std::vector<std::pair<std::string, std::int64_t>> got;
  for (const Statement& s : m.functions[0].body) {
    const Operand& a = s.instruction->operands[1];
    ASSERT_EQ(a.kind, Kind::address);
    got.emplace_back(a.name, a.offset);
  }
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::int64_t>>{{"%rd1", 0},
                                                                    {"%rd1", 16},
                                                                    {"%rd1", -4},
                                                                    {"%rd1", -8},
                                                                    {"k_p0", 0},
                                                                    {"gv", 8},
                                                                    {"", 4096}}));
}

TEST(Parser, GuardsNegationSinkPairsAndSpecials) {
  const Module m =
      parse_body("@!%p1 bra $L__BB0_1;\n"
                 "$L__BB0_1:\n"
                 "setp.lt.and.s32 %p1, %r1, %r2, !%p2;\n"
                 "shfl.sync.idx.b32 %r1|%p3, %r2, 0, 31, -1;\n"
                 "atom.global.exch.b32 _, [%rd1], %r1;\n"
                 "mov.u64 %rd1, %clock64;\nmov.u32 %r1, %lanemask_lt;\nmov.u32 %r1, %ctaid.y;\n"
                 "mov.u32 %r1, %nctaid.z;\n"
                 "mov.u32 %r1, WARP_SZ;\n"
                 "st.global.v4.u32 [%rd1], {%r1, %r2, _, %r4};");
  const auto& b = m.functions[0].body;
  ASSERT_EQ(b.size(), 11u);
  EXPECT_EQ(b[0].instruction->guard, "%p1");
  EXPECT_TRUE(b[0].instruction->guard_negated);
  ASSERT_TRUE(b[1].label);
  EXPECT_EQ(b[1].label->line, 11);
  const Instruction& setp = *b[2].instruction;
  EXPECT_EQ(setp.modifiers, (std::vector<std::string>{"lt", "and", "s32"}));
  EXPECT_EQ(setp.operands[3].kind, Kind::reg);
  EXPECT_TRUE(setp.operands[3].negated);
  EXPECT_FALSE(setp.operands[1].negated);
  const Instruction& shfl = *b[3].instruction;
  ASSERT_EQ(shfl.operands[0].kind, Kind::pred_pair);
  EXPECT_EQ(shfl.operands[0].elements[1].name, "%p3");
  EXPECT_EQ(shfl.operands[4].bits, 0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(b[4].instruction->operands[0].kind, Kind::sink);
  EXPECT_EQ(b[5].instruction->operands[1].kind, Kind::special);
  EXPECT_EQ(b[5].instruction->operands[1].name, "%clock64");
  EXPECT_EQ(b[6].instruction->operands[1].name, "%lanemask_lt");
  EXPECT_EQ(b[7].instruction->operands[1].name, "%ctaid.y");
  EXPECT_EQ(b[8].instruction->operands[1].name, "%nctaid.z");
  EXPECT_EQ(b[9].instruction->operands[1].kind, Kind::special);
  EXPECT_EQ(b[9].instruction->operands[1].name, "WARP_SZ");
  const Operand& v = b[10].instruction->operands[1];
  ASSERT_EQ(v.kind, Kind::vector);
  ASSERT_EQ(v.elements.size(), 4u);
  EXPECT_EQ(v.elements[2].kind, Kind::sink);
  EXPECT_EQ(b[10].instruction->line, 20);
}

TEST(Parser, CallForms) {
  const std::string text =
      std::string(kHeader) +
      ".func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], 1;\nret;\n}\n"
      ".func g(.param .b64 a)\n{\nret;\n}\n"
      ".func h()\n{\nret;\n}\n"
      ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
      "{\n.param .b32 p0;\n.param .b32 rv;\n"
      "call (rv), f, (p0);\n}\n"
      "{\n.param .b64 p0;\ncall.uni g, (p0);\n}\n"
      "call.uni h;\n"
      "{\n.param .b32 p0;\n.param .b32 rv;\n"
      "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
      "call (rv), %rd1, (p0), proto;\n}\n"
      "ret;\n}\n";
  const Module m = parse_module(text, "calls.ptx");
  const Function* k = m.find_function("k");
  ASSERT_NE(k, nullptr);
  std::vector<const Instruction*> calls;
  for (const Statement& s : k->body) {
    ASSERT_FALSE(s.label) << "the .callprototype line is not a label";
    if (s.instruction->opcode == "call") {
      calls.push_back(&*s.instruction);
    }
  }
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_TRUE(calls[0]->modifiers.empty());
  EXPECT_EQ(calls[0]->operands[0].elements.at(0).name, "rv");
  EXPECT_EQ(calls[0]->operands[1].name, "f");
  EXPECT_EQ(calls[0]->operands[2].elements.at(0).name, "p0");
  EXPECT_TRUE(calls[1]->operands[0].elements.empty());
  EXPECT_EQ(calls[1]->operands[2].elements.at(0).name.rfind("p0$", 0), 0u);
  ASSERT_EQ(calls[2]->operands.size(), 3u);
  EXPECT_EQ(calls[2]->operands[1].name, "h");
  EXPECT_TRUE(calls[2]->operands[2].elements.empty());
  ASSERT_EQ(calls[3]->operands.size(), 4u);
  EXPECT_EQ(calls[3]->operands[1].kind, Kind::reg);
  EXPECT_EQ(calls[3]->operands[3].name, "proto");
  EXPECT_EQ(m.find_function("f")->returns.at(0).name, "r");
  EXPECT_TRUE(m.find_function("h")->params.empty());
}

TEST(Parser, NestedScopesRenameScalarsAndRanges) {
  const Module m = parse_body("mov.u32 %r1, 1;\n"
                              "{\n.reg .b32 %r<3>;\n.reg .b32 %t;\nmov.u32 %r1, 2;\n"
                              "mov.u32 %r5, %r1;\n"
                              "{\n.reg .b32 %r1;\nmov.u32 %r1, 3;\nmov.u32 %r2, %t;\n}\n"
                              "}\n"
                              "{\n.reg .b32 %t;\nmov.u32 %t, %r1;\n}\n"
                              "mov.u32 %r1, 4;");
  const Function& f = m.functions[0];
  std::vector<std::pair<std::string, std::string>> moves;
  for (const Statement& s : f.body) {
    moves.emplace_back(s.instruction->operands[0].name,
                       s.instruction->operands[1].kind == Kind::reg
                           ? s.instruction->operands[1].name
                           : std::to_string(s.instruction->operands[1].bits));
  }
  ASSERT_EQ(moves.size(), 7u);
  EXPECT_EQ(moves[0].first, "%r1");
  const std::string inner_r1 = moves[1].first;
  EXPECT_NE(inner_r1, "%r1");
  EXPECT_EQ(moves[2].first, "%r5"); // beyond the inner range: the outer register
  EXPECT_EQ(moves[2].second, inner_r1);
  const std::string innermost_r1 = moves[3].first;
  EXPECT_NE(innermost_r1, inner_r1);
  EXPECT_NE(innermost_r1, "%r1");
  EXPECT_EQ(moves[4].second, "%t"); // first %t needs no new name
  EXPECT_NE(moves[4].first, "%r2");
  const std::string second_t = moves[5].first;
  EXPECT_NE(second_t, "%t");
  EXPECT_EQ(moves[5].second, "%r1");
  EXPECT_EQ(moves[6].first, "%r1");

  // Every name used is declared exactly once in the flat register list.
  std::set<std::string> declared;
  for (const RegisterDecl& r : f.registers) {
    if (r.count == 0) {
      EXPECT_TRUE(declared.insert(r.name).second) << r.name;
    } else {
      for (int i = 0; i < r.count; ++i) {
        EXPECT_TRUE(declared.insert(r.name + std::to_string(i)).second) << r.name << i;
      }
    }
  }
  for (const auto& [dst, src] : moves) {
    EXPECT_TRUE(declared.count(dst)) << dst;
  }
}

TEST(Parser, ParameterDeclarations) {
  const std::string text = std::string(kHeader) + ".visible .entry k(\n"
                                                  "  .param .align 8 .b8 k_s[16],\n"
                                                  "  .param .u64 .ptr .global .align 4 k_p,\n"
                                                  "  .param .u64 .ptr .align 1 k_q,\n"
                                                  "  .param .f64 k_d\n"
                                                  ")\n.reqntid 128, 2\n.maxnreg 32\n{\nret;\n}\n";
  const Module m = parse_module(text, "params.ptx");
  const Function& f = m.functions.at(0);
  ASSERT_EQ(f.params.size(), 4u);
  EXPECT_EQ(f.params[0].align, 8u);
  EXPECT_EQ(f.params[0].array_size, 16u);
  EXPECT_EQ(f.params[0].size_bytes(), 16u);
  EXPECT_TRUE(f.params[1].is_ptr);
  EXPECT_EQ(f.params[1].align, 8u); // .ptr's .align is the pointee's, not the parameter's
  EXPECT_EQ(f.params[1].size_bytes(), 8u);
  EXPECT_TRUE(f.params[2].is_ptr);
  EXPECT_EQ(f.params[2].align, 8u);
  EXPECT_FALSE(f.params[3].is_ptr);
  EXPECT_EQ(f.params[3].align, 8u);
  EXPECT_EQ(f.param_offsets, (std::vector<std::size_t>{0, 16, 24, 32}));
  EXPECT_EQ(f.param_bytes, 40u);
  EXPECT_EQ(f.reqntid[0], 128u);
  EXPECT_EQ(f.reqntid[1], 2u);
  EXPECT_EQ(f.reqntid[2], 1u);
  EXPECT_EQ(f.maxnreg, 32u);
}

TEST(Parser, ModuleVariablesAndInitializers) {
  const std::string text = std::string(kHeader) +
                           ".global .align 4 .f32 fv[3] = {1.0, 0f40000000, -2};\n"
                           ".const .f64 dv[2] = {0.5, 0d3FF0000000000000};\n"
                           ".global .s16 sv[2][2] = {{1, -1}, {2, -2}};\n"
                           ".global .u8 grow[] = {1, 2, 3};\n"
                           ".global .u32 pad[4] = {9};\n"
                           ".global .u64 ptrs[2] = {generic(fv)+4, dv};\n"
                           ".shared .align 16 .b8 tile[256];\n"
                           ".global .v2 .u32 pair;\n"
                           "/* a comment\n spanning lines */ .global .u32 a, b = 5;\n";
  const Module m = parse_module(text, "vars.ptx");
  const Variable* fv = m.find_global("fv");
  ASSERT_NE(fv, nullptr);
  float f[3];
  std::memcpy(f, fv->init.data(), 12);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[1], 2.0f);
  EXPECT_EQ(f[2], -2.0f);
  const Variable* dv = m.find_global("dv");
  ASSERT_NE(dv, nullptr);
  EXPECT_EQ(dv->space, StateSpace::const_);
  double d[2];
  std::memcpy(d, dv->init.data(), 16);
  EXPECT_EQ(d[0], 0.5);
  EXPECT_EQ(d[1], 1.0);
  const Variable* sv = m.find_global("sv");
  ASSERT_NE(sv, nullptr);
  EXPECT_EQ(sv->array_size, 4u);
  EXPECT_EQ(sv->init, (std::vector<std::uint8_t>{1, 0, 0xFF, 0xFF, 2, 0, 0xFE, 0xFF}));
  EXPECT_EQ(m.find_global("grow")->array_size, 3u);
  EXPECT_EQ(m.find_global("grow")->size_bytes(), 3u);
  EXPECT_EQ(m.find_global("pad")->init,
            (std::vector<std::uint8_t>{9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const Variable* ptrs = m.find_global("ptrs");
  ASSERT_NE(ptrs, nullptr);
  ASSERT_EQ(ptrs->init_symbols.size(), 2u);
  EXPECT_EQ(ptrs->init_symbols[0], (std::pair<std::size_t, std::string>{0, "fv"}));
  EXPECT_EQ(ptrs->init_symbols[1], (std::pair<std::size_t, std::string>{8, "dv"}));
  EXPECT_EQ(ptrs->init[0], 4u); // the addend
  const Variable* tile = m.find_global("tile");
  EXPECT_EQ(tile->space, StateSpace::shared);
  EXPECT_EQ(tile->align, 16u);
  EXPECT_TRUE(tile->init.empty());
  EXPECT_EQ(m.find_global("pair")->vector_width, 2);
  EXPECT_EQ(m.find_global("pair")->size_bytes(), 8u);
  EXPECT_EQ(m.find_global("pair")->align, 8u);
  EXPECT_EQ(m.find_global("a")->line, 13);
  EXPECT_EQ(m.find_global("a")->type, "u32");
  EXPECT_TRUE(m.find_global("a")->init.empty());
  EXPECT_EQ(m.find_global("b")->init, (std::vector<std::uint8_t>{5, 0, 0, 0}));
}

TEST(Parser, PragmasLocAndSectionsAreAccepted) {
  const std::string text = std::string(kHeader) +
                           ".file 2 \"a.cu\", 1700000000, 120\n"
                           ".visible .entry k()\n{\n.reg .b32 %r<2>;\n"
                           ".pragma \"nounroll\";\n"
                           ".loc 2 40 7\nmov.u32 %r1, 1;\n"
                           ".loc 2 41 1, function_name $L__info_string0, inlined_at 2 40 7\n"
                           "mov.u32 %r1, 2;\nret;\n}\n"
                           ".section .debug_str\n{\n$L__info_string0:\n.b8 95,0\n}\n";
  const Module m = parse_module(text, "loc.ptx");
  EXPECT_EQ(m.files.at(2), "a.cu");
  const auto& b = m.functions.at(0).body;
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].instruction->source_file, 2);
  EXPECT_EQ(b[0].instruction->source_line, 40);
  EXPECT_EQ(b[1].instruction->source_line, 41);
  EXPECT_EQ(b[2].instruction->source_line, 41);
}

TEST(Parser, ErrorsNameTheLineAndToken) {
  const std::string head = std::string(kHeader) + ".visible .entry k()\n{\n.reg .b32 %r<2>;\n";
  EXPECT_EQ(error_of(head + "mov.u32 %r1, 1\nret;\n}\n"),
            "bad.ptx:8: expected ';' at the end of 'mov' near 'ret'");
  EXPECT_EQ(error_of(head + "mov.u32 %r7x, 1;\n}\n"), "bad.ptx:7: undeclared register near '%r7x'");
  EXPECT_EQ(error_of(head + "mov.u32 %r5, 1;\n}\n"), "bad.ptx:7: undeclared register near '%r5'");
  EXPECT_EQ(error_of(head + ".frobnicate 3;\n}\n"),
            "bad.ptx:7: unknown directive near '.frobnicate'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".texture foo;\n"),
            "bad.ptx:4: unknown directive near '.texture'");
  EXPECT_EQ(error_of(head + "mov.u32 %r1, [%r1+];\n}\n"),
            "bad.ptx:7: expected an address offset near ']'");
  EXPECT_EQ(error_of(head + "mov.u32 %r1, #;\n}\n"), "bad.ptx:7: unexpected character near '#'");
  EXPECT_EQ(error_of(head + "ret;\n"), "bad.ptx:8: missing '}' at the end of k near 'end of file'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .u8 x[2] = {1, 2, 3};\n"),
            "bad.ptx:4: initializer has 3 bytes but x holds 2 near '{'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".global .b8 x[4] /* open\n\n"),
            "bad.ptx:4: unterminated comment near '/*'");
  EXPECT_EQ(error_of(head + "mov.f32 %r1, 0f3F80;\n}\n"),
            "bad.ptx:7: malformed float literal near '0f3F80'");
  EXPECT_EQ(error_of(head + "add.s32 %r1, %r1, -%r1;\n}\n"),
            "bad.ptx:7: expected an operand near '%r1'");
  EXPECT_EQ(error_of(head + "add.s32 %r1, %r1, 12ab;\n}\n"),
            "bad.ptx:7: malformed number near '12ab'");
  EXPECT_EQ(error_of(head + "%r1: ret;\n}\n"),
            "bad.ptx:7: a label cannot start with '%' near '%r1'");
  EXPECT_EQ(error_of(head + "L1: ret;\nL1: ret;\n}\n"), "bad.ptx:8: duplicate label near 'L1'");
  EXPECT_EQ(error_of(".version 8.8\n.address_size 48\n"),
            "bad.ptx:2: expected 32 or 64 after .address_size near '48'");
}

// Hostile sizes, depths and integers end in a parse error, never in undefined behaviour, a
// runaway allocation or a stack overflow (tests/fuzz/regressions/ptx_module has the inputs).
TEST(Parser, LimitsEndInErrors) {
  const std::string head = std::string(kHeader) + ".visible .entry k()\n{\n.reg .b32 %r<2>;\n";
  const std::string g = kHeader;
  EXPECT_EQ(error_of(g + ".address_size -9223372036854775809\n"),
            "bad.ptx:4: 32 or 64 after .address_size is out of range near '9223372036854775809'");
  EXPECT_EQ(error_of(head + "ld.u32 %r1, [%r1+4294967297];\n}\n"),
            "bad.ptx:7: address offset out of range near ']'");
  EXPECT_EQ(error_of(g + ".global .u8 x[2000000000000];\n"),
            "bad.ptx:4: x is larger than 1099511627776 bytes near ';'");
  EXPECT_EQ(error_of(g + ".global .u8 x[1000000000] = {1};\n"),
            "bad.ptx:4: x is initialized and larger than 268435456 bytes near '{'");
  EXPECT_EQ(error_of(g + ".global .u8 x[4294967296][4294967296];\n"),
            "bad.ptx:4: array size out of range near ';'");
  EXPECT_EQ(error_of(g + ".global .align 131072 .u8 x;\n"),
            "bad.ptx:4: alignment must be a power of two up to 65536 near '.align'");
  EXPECT_EQ(error_of(head + "mov.u32 " + std::string(5000, '{') + "%r1;\n}\n"),
            "bad.ptx:7: operand nested too deeply near '{'");
  EXPECT_EQ(error_of(g + ".global .u8 x = " + std::string(100, '{') + "1;\n"),
            "bad.ptx:4: initializer lists nested too deeply near '{'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".visible .entry k()\n{\n.reg .b32 %r<1048577>;\n}\n"),
            "bad.ptx:6: more than 1048576 registers in one function near '>'");
  // A pair of pairs is no type: the declaration does not start.
  EXPECT_NE(error_of(g + ".global .u8x2x2 x;\n").find("bad.ptx:4"), std::string::npos);
  // Wider than 64 bits: the upper bytes of a .b128 initializer are zero.
  const Module m = parse_module(g + ".global .b128 x = 1;\n", "ok.ptx");
  ASSERT_EQ(m.globals.size(), 1u);
  EXPECT_EQ(m.globals[0].init,
            (std::vector<std::uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

// A kernel's parameters are read by the shared PTX entry parser (backends/kit): its errors come
// out with this file's name and the line in the whole module.
TEST(Parser, KernelParameterErrorsNameTheLine) {
  EXPECT_EQ(error_of(std::string(kHeader) +
                     ".visible .entry k(\n.param .u32 a,\n.param b\n)\n{\nret;\n}\n"),
            "bad.ptx:6: expected a type in a parameter declaration near 'b'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".visible .entry k(.reg .u32 a)\n{\nret;\n}\n"),
            "bad.ptx:4: expected .param in a parameter list near '.reg'");
  EXPECT_EQ(error_of(std::string(kHeader) + ".visible .entry k(.param .u32 a\n"),
            "bad.ptx:4: unclosed parameter list near '('");
  // Device functions keep their own parameter lists (with .reg parameters, which kernels lack).
  const Module m =
      parse_module(std::string(kHeader) + ".func f(.reg .u32 a)\n{\nret;\n}\n"
                                          ".visible .entry k(.param .u32 n)\n{\nret;\n}\n",
                   "ok.ptx");
  EXPECT_EQ(m.functions.at(0).params.at(0).space, StateSpace::reg);
  EXPECT_EQ(m.functions.at(1).param_offsets, std::vector<std::size_t>{0});
  EXPECT_EQ(m.functions.at(1).param_bytes, 4u);
}

} // namespace
} // namespace gpurun::ptx::test

namespace gpurun::ptx::test {
namespace {

// Every prefix and every single-line deletion of real PTX either parses or fails with a compile
// error that names a line: never a crash or another exception type.
TEST(Parser, DamagedFixturesFailCleanly) {
  for (const char* name : {"print_threads", "device_funcs", "globals_local", "warp_reduce"}) {
    const std::string text = read_fixture(name);
    auto check = [&](const std::string& damaged, const std::string& what) {
      try {
        (void)parse_module(damaged, "damaged.ptx");
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ExitCode::compile) << what;
        EXPECT_EQ(std::string(e.what()).rfind("damaged.ptx:", 0), 0u) << what << ": " << e.what();
      }
    };
    for (std::size_t cut = 0; cut < text.size(); cut += 37) {
      check(text.substr(0, cut), std::string(name) + " cut at " + std::to_string(cut));
    }
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
      check(text.substr(0, start) + text.substr(stop),
            std::string(name) + " without line at " + std::to_string(start));
      start = stop;
    }
  }
}

} // namespace
} // namespace gpurun::ptx::test

namespace gpurun::ptx::test {
namespace {

TEST(Parser, ManySiblingScopesGetDistinctNames) {
  std::string body;
  for (int i = 0; i < 2000; ++i) {
    body += "{\n.reg .pred %p<2>;\n.reg .b32 %r1<3>;\n.param .b32 param0;\n"
            "setp.ne.s32 %p1, %r2, 0;\nst.param.b32 [param0], %r12;\n}\n";
  }
  const Module m = parse_body(body + "ret;\n", ".reg .b32 %r1<20>;");
  const Function& f = m.functions.at(0);
  std::set<std::string> registers;
  for (const RegisterDecl& r : f.registers) {
    for (int i = 0; i < std::max(r.count, 1); ++i) {
      EXPECT_TRUE(registers.insert(r.count == 0 ? r.name : r.name + std::to_string(i)).second)
          << r.name << i;
    }
  }
  std::set<std::string> locals;
  for (const Variable& v : f.locals) {
    EXPECT_TRUE(locals.insert(v.name).second) << v.name;
  }
  EXPECT_EQ(locals.size(), 2000u);
  std::set<std::string> predicates;
  std::set<std::string> stored;
  for (const Statement& s : f.body) {
    if (s.instruction->opcode == "setp") {
      predicates.insert(s.instruction->operands[0].name);
      EXPECT_EQ(s.instruction->operands[1].name, "%r2"); // the kernel's, not a scope's
    } else if (s.instruction->opcode == "st") {
      stored.insert(s.instruction->operands[0].name);
      // %r12 is member 2 of the scope's %r1<3>, which must not be the kernel's %r12 (of %r1<20>)
      EXPECT_NE(s.instruction->operands[1].name, "%r12");
      EXPECT_TRUE(registers.count(s.instruction->operands[1].name));
    }
  }
  EXPECT_EQ(predicates.size(), 2000u);
  EXPECT_EQ(stored, locals);
}

} // namespace
} // namespace gpurun::ptx::test

namespace gpurun::ptx::test {
namespace {

TEST(Parser, FindFunctionPrefersTheDefinitionAndSizesFollowTypes) {
  const Module m =
      parse_module(std::string(kHeader) + ".extern .func f(.param .b32 a);\n"
                                          ".func f(.param .b32 a)\n{\nret;\n}\n"
                                          ".global .align 8 .u64 s[1] = {generic($str)};\n"
                                          ".global .b8 $str[2] = {104, 105};\n",
                   "find.ptx");
  ASSERT_EQ(m.functions.size(), 2u);
  const Function* f = m.find_function("f");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->has_body);
  EXPECT_EQ(m.find_function("g"), nullptr);
  EXPECT_EQ(m.find_global("s")->init_symbols.at(0).second, "$str");
}

} // namespace
} // namespace gpurun::ptx::test
