// Parses the NVRTC output in tests/data/ptx/ and pins what the emulator relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "fixture_helpers.hpp"

namespace gpurun::ptx::test {
namespace {

using Kind = Operand::Kind;

class EveryFixture : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryFixture, ParsesWithAnEntryAndAHeader) {
  const Module m = parse_fixture(GetParam());
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90");
  EXPECT_EQ(m.address_size, 64);
  ASSERT_EQ(m.files.size(), 1u);
  EXPECT_NE(m.files.at(1).find(std::string(GetParam()) + ".cu"), std::string::npos);
  int entries = 0;
  for (const Function& f : m.functions) {
    entries += f.is_entry ? 1 : 0;
    if (f.has_body) {
      EXPECT_FALSE(f.body.empty()) << f.name;
      EXPECT_FALSE(f.registers.empty()) << f.name;
      // Every function ends in ret (NVRTC never falls off the end).
      ASSERT_TRUE(f.body.back().instruction) << f.name;
      EXPECT_EQ(f.body.back().instruction->opcode, "ret") << f.name;
    }
  }
  EXPECT_GE(entries, 1);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, EveryFixture,
                         ::testing::Values("scalar_add", "vector_add", "saxpy", "print_threads",
                                           "matmul_tiled", "reduce_block", "warp_reduce",
                                           "histogram", "transpose", "half_math", "math_mix",
                                           "device_funcs", "template_kernel", "globals_local"));

TEST(Fixtures, ScalarAddSignatureRegistersAndLines) {
  const Module m = parse_fixture("scalar_add");
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  EXPECT_EQ(f.name, "scalar_add");
  EXPECT_TRUE(f.is_entry);
  EXPECT_EQ(f.linkage, "visible");
  EXPECT_EQ(f.line, 15);
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[0].name, "scalar_add_param_0");
  EXPECT_EQ(f.params[0].type, "u64");
  EXPECT_EQ(f.params[0].space, StateSpace::param);
  EXPECT_EQ(f.params[0].size_bytes(), 8u);
  EXPECT_EQ(f.params[1].type, "f32");
  EXPECT_EQ(f.params[2].size_bytes(), 4u);
  EXPECT_EQ(f.param_bytes, 16u);
  ASSERT_EQ(f.registers.size(), 4u);
  EXPECT_EQ(f.registers[0].type, "pred");
  EXPECT_EQ(f.registers[0].name, "%p");
  EXPECT_EQ(f.registers[0].count, 2);
  EXPECT_EQ(f.registers[2].name, "%r");
  EXPECT_EQ(f.registers[2].count, 6);
  EXPECT_EQ(f.registers[3].type, "b64");

  const Instruction* load = instruction_at(f, 28);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->opcode, "ld");
  EXPECT_EQ(load->modifiers, (std::vector<std::string>{"param", "u64"}));
  ASSERT_EQ(load->operands.size(), 2u);
  EXPECT_EQ(load->operands[0].kind, Kind::reg);
  EXPECT_EQ(load->operands[0].name, "%rd1");
  EXPECT_EQ(load->operands[1].kind, Kind::address);
  EXPECT_EQ(load->operands[1].name, "scalar_add_param_0");
  EXPECT_EQ(load->operands[1].offset, 0);
  EXPECT_EQ(load->source_file, 1);
  EXPECT_EQ(load->source_line, 1);

  const Instruction* tid = instruction_at(f, 34);
  ASSERT_NE(tid, nullptr);
  EXPECT_EQ(tid->operands[1].kind, Kind::special);
  EXPECT_EQ(tid->operands[1].name, "%tid.x");
  EXPECT_EQ(tid->source_line, 2);

  const Instruction* branch = instruction_at(f, 38);
  ASSERT_NE(branch, nullptr);
  EXPECT_EQ(branch->guard, "%p1");
  EXPECT_FALSE(branch->guard_negated);
  EXPECT_EQ(branch->opcode, "bra");
  ASSERT_EQ(branch->operands.size(), 1u);
  EXPECT_EQ(branch->operands[0].kind, Kind::symbol);
  EXPECT_EQ(branch->operands[0].name, "$L__BB0_2");
  EXPECT_EQ(branch->source_line, 3);

  // The label sits between the store and ret, in instruction order.
  const auto& body = f.body;
  ASSERT_GE(body.size(), 2u);
  ASSERT_TRUE(body[body.size() - 2].label);
  EXPECT_EQ(body[body.size() - 2].label->name, "$L__BB0_2");
  EXPECT_EQ(body[body.size() - 2].label->line, 49);
  EXPECT_EQ(body.back().instruction->source_line, 6);
  EXPECT_EQ(body.back().instruction->line, 51);
}

TEST(Fixtures, PrintfStringCallSequenceAndExternPrototype) {
  const Module m = parse_fixture("print_threads");
  const Function* vprintf = m.find_function("vprintf");
  ASSERT_NE(vprintf, nullptr);
  EXPECT_FALSE(vprintf->has_body);
  EXPECT_FALSE(vprintf->is_entry);
  EXPECT_EQ(vprintf->linkage, "extern");
  ASSERT_EQ(vprintf->returns.size(), 1u);
  EXPECT_EQ(vprintf->returns[0].name, "func_retval0");
  EXPECT_EQ(vprintf->returns[0].type, "b32");
  ASSERT_EQ(vprintf->params.size(), 2u);
  EXPECT_EQ(vprintf->params[1].name, "vprintf_param_1");

  const Variable* str = m.find_global("$str");
  ASSERT_NE(str, nullptr);
  EXPECT_EQ(str->space, StateSpace::global);
  EXPECT_EQ(str->align, 1u);
  ASSERT_EQ(str->array_size, 46u);
  ASSERT_EQ(str->init.size(), 46u); // 45 listed bytes, the NUL filled in
  const char* expected = "block (%d,%d,%d) thread (%d,%d,%d) global %d\n";
  EXPECT_EQ(std::memcmp(str->init.data(), expected, 46), 0);

  const Function* k = m.find_function("print_threads");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->params.empty());
  ASSERT_EQ(k->locals.size(), 4u);
  EXPECT_EQ(k->locals[0].name, "__local_depot0");
  EXPECT_EQ(k->locals[0].space, StateSpace::local);
  EXPECT_EQ(k->locals[0].align, 8u);
  EXPECT_EQ(k->locals[0].size_bytes(), 32u);
  EXPECT_EQ(k->locals[1].name, "param0");
  EXPECT_EQ(k->locals[1].space, StateSpace::param);
  EXPECT_EQ(k->locals[3].name, "retval0");
  // %SP and %SPL are scalars; the call sequence's temp_param_reg too.
  int scalars = 0;
  for (const RegisterDecl& r : k->registers) {
    scalars += r.count == 0 ? 1 : 0;
  }
  EXPECT_EQ(scalars, 3);

  const Instruction* vec = instruction_at(*k, 63);
  ASSERT_NE(vec, nullptr);
  EXPECT_EQ(vec->opcode, "st");
  EXPECT_EQ(vec->modifiers, (std::vector<std::string>{"local", "v2", "u32"}));
  EXPECT_EQ(vec->operands[0].kind, Kind::address);
  EXPECT_EQ(vec->operands[0].offset, 8);
  ASSERT_EQ(vec->operands[1].kind, Kind::vector);
  ASSERT_EQ(vec->operands[1].elements.size(), 2u);
  EXPECT_EQ(vec->operands[1].elements[1].name, "%r15");

  const Instruction* symbol_move = instruction_at(*k, 66);
  ASSERT_NE(symbol_move, nullptr);
  EXPECT_EQ(symbol_move->operands[1].kind, Kind::symbol);
  EXPECT_EQ(symbol_move->operands[1].name, "$str");

  const Instruction* call = instruction_at(*k, 75);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->opcode, "call");
  EXPECT_EQ(call->modifiers, std::vector<std::string>{"uni"});
  ASSERT_EQ(call->operands.size(), 3u);
  ASSERT_EQ(call->operands[0].kind, Kind::vector);
  ASSERT_EQ(call->operands[0].elements.size(), 1u);
  EXPECT_EQ(call->operands[0].elements[0].name, "retval0");
  EXPECT_EQ(call->operands[1].kind, Kind::symbol);
  EXPECT_EQ(call->operands[1].name, "vprintf");
  ASSERT_EQ(call->operands[2].elements.size(), 2u);
  EXPECT_EQ(call->operands[2].elements[0].name, "param0");
  EXPECT_EQ(call->operands[2].elements[1].name, "param1");
  EXPECT_EQ(call->source_line, 7);
}

TEST(Fixtures, CallSequencesGetUniqueParamNames) {
  const Module m = parse_fixture("device_funcs");
  ASSERT_EQ(m.functions.size(), 4u);
  const Function* sq = m.find_function("_Z11square_plusff");
  ASSERT_NE(sq, nullptr);
  EXPECT_FALSE(sq->is_entry);
  EXPECT_EQ(sq->linkage, "");
  ASSERT_EQ(sq->returns.size(), 1u);
  EXPECT_EQ(sq->returns[0].type, "b32");
  const Instruction* ret_store = instruction_at(*sq, 25);
  ASSERT_NE(ret_store, nullptr);
  EXPECT_EQ(ret_store->operands[0].name, "func_retval0");
  EXPECT_EQ(ret_store->operands[1].name, "%f2");
  const Instruction* fma = instruction_at(*sq, 24);
  ASSERT_NE(fma, nullptr);
  EXPECT_EQ(fma->operands[3].kind, Kind::imm_f32);
  EXPECT_EQ(fma->operands[3].bits, 0x3F800000u);

  const Function* bump = m.find_function("_Z4bumpPii");
  ASSERT_NE(bump, nullptr);
  EXPECT_TRUE(bump->returns.empty());

  const Function* k = m.find_function("device_funcs");
  ASSERT_NE(k, nullptr);
  // Three call sequences each declare param0 (and two declare retval0): all distinct in the flat
  // AST, and each call names the ones its own scope declared.
  std::vector<std::string> names;
  for (const Variable& v : k->locals) {
    names.push_back(v.name);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  EXPECT_EQ(k->locals.size(), 6u);

  std::vector<const Instruction*> calls;
  for (const Statement& s : k->body) {
    if (s.instruction && s.instruction->opcode == "call") {
      calls.push_back(&*s.instruction);
    }
  }
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0]->operands[1].name, "_Z11clamp_indexiii");
  EXPECT_EQ(calls[0]->operands[2].elements[0].name, "param0");
  EXPECT_EQ(calls[1]->operands[1].name, "_Z11square_plusff");
  const std::string second_param0 = calls[1]->operands[2].elements[0].name;
  const std::string second_ret = calls[1]->operands[0].elements[0].name;
  EXPECT_NE(second_param0, "param0");
  EXPECT_EQ(second_param0.rfind("param0$", 0), 0u);
  EXPECT_NE(second_ret, "retval0");
  // The store into the second call's param0 and the load of its retval0 use the same new names.
  bool stored = false;
  bool loaded = false;
  for (const Statement& s : k->body) {
    if (!s.instruction || s.instruction->operands.empty()) {
      continue;
    }
    const Instruction& in = *s.instruction;
    if (in.opcode == "st" && in.operands[0].name == second_param0) {
      stored = true;
      EXPECT_EQ(in.modifiers, (std::vector<std::string>{"param", "f32"}));
    }
    if (in.opcode == "ld" && in.operands.size() == 2 && in.operands[1].name == second_ret) {
      loaded = true;
      EXPECT_EQ(in.operands[0].name, "%f2");
    }
  }
  EXPECT_TRUE(stored);
  EXPECT_TRUE(loaded);
  // A call without a return value: an empty return list.
  EXPECT_EQ(calls[2]->operands[0].kind, Kind::vector);
  EXPECT_TRUE(calls[2]->operands[0].elements.empty());
  EXPECT_EQ(calls[2]->operands[1].name, "_Z4bumpPii");
  EXPECT_EQ(calls[2]->operands[2].elements.size(), 1u);
}

TEST(Fixtures, DynamicSharedArrayAndLaunchBounds) {
  const Module m = parse_fixture("reduce_block");
  const Variable* sdata = m.find_global("sdata");
  ASSERT_NE(sdata, nullptr);
  EXPECT_EQ(sdata->space, StateSpace::shared);
  EXPECT_TRUE(sdata->is_extern);
  ASSERT_TRUE(sdata->array_size.has_value());
  EXPECT_EQ(*sdata->array_size, 0u);
  EXPECT_EQ(sdata->size_bytes(), 0u);
  EXPECT_EQ(sdata->align, 16u);
  const Function& f = m.functions[0];
  ASSERT_TRUE(f.maxntid[0] && f.maxntid[1] && f.maxntid[2]);
  EXPECT_EQ(*f.maxntid[0], 256u);
  EXPECT_EQ(*f.maxntid[1], 1u);
  EXPECT_FALSE(f.reqntid[0].has_value());
  ASSERT_TRUE(f.minnctapersm);
  EXPECT_EQ(*f.minnctapersm, 2u);
  EXPECT_EQ(count_instructions(f, "bar.sync"), 2);
  EXPECT_EQ(count_instructions(f, "ld.shared.f32"), 3);
}

TEST(Fixtures, WarpShuffleVoteLaneIdAndInlineAsmScope) {
  const Module m = parse_fixture("warp_reduce");
  const Function& f = m.functions[0];
  const Instruction* shfl = instruction_at(f, 64);
  ASSERT_NE(shfl, nullptr);
  EXPECT_EQ(shfl->modifiers, (std::vector<std::string>{"sync", "down", "b32"}));
  ASSERT_EQ(shfl->operands.size(), 5u);
  ASSERT_EQ(shfl->operands[0].kind, Kind::pred_pair);
  EXPECT_EQ(shfl->operands[0].elements[0].name, "%r18");
  EXPECT_EQ(shfl->operands[0].elements[1].name, "%p6");
  EXPECT_EQ(count_instructions(f, "vote.sync.ballot.b32"), 1);
  EXPECT_EQ(count_instructions(f, "vote.sync.any.pred"), 1);
  EXPECT_EQ(count_instructions(f, "shfl.sync.bfly.b32"), 5);

  const Instruction* lane = instruction_at(f, 89);
  ASSERT_NE(lane, nullptr);
  EXPECT_EQ(lane->operands[1].kind, Kind::special);
  EXPECT_EQ(lane->operands[1].name, "%laneid");
  // `.loc 1 4 3, function_name …, inlined_at 1 27 3` is the inlined function's line.
  EXPECT_EQ(lane->source_line, 4);

  // The inline asm's `{ .reg .pred %p<2>; … %p1 … }` must not alias the kernel's %p1.
  const RegisterDecl& inner = f.registers.back();
  EXPECT_EQ(inner.type, "pred");
  EXPECT_EQ(inner.count, 2);
  EXPECT_NE(inner.name, "%p");
  const Instruction* setp = instruction_at(f, 118);
  const Instruction* selp = instruction_at(f, 119);
  ASSERT_NE(setp, nullptr);
  ASSERT_NE(selp, nullptr);
  EXPECT_EQ(setp->operands[0].name, inner.name + "1");
  EXPECT_EQ(selp->operands[3].name, inner.name + "1");
  EXPECT_EQ(selp->operands[0].name, "%r38"); // outer registers keep their names inside
  EXPECT_EQ(setp->source_line, 11);
  // After the scope closes, %p names the kernel's registers again.
  const Instruction* branch = instruction_at(f, 93);
  ASSERT_NE(branch, nullptr);
  EXPECT_EQ(branch->guard, "%p16");
}

TEST(Fixtures, SharedTilesAtomicsAndNegativeOffsets) {
  const Module tiled = parse_fixture("matmul_tiled");
  const Function& mm = tiled.functions[0];
  ASSERT_EQ(mm.locals.size(), 2u);
  EXPECT_EQ(mm.locals[0].name, "_ZZ12matmul_tiledE2As");
  EXPECT_EQ(mm.locals[0].space, StateSpace::shared);
  EXPECT_EQ(mm.locals[0].size_bytes(), 1024u);
  const Instruction* ld = instruction_at(mm, 114);
  ASSERT_NE(ld, nullptr);
  EXPECT_EQ(ld->operands[1].name, "%rd4");
  EXPECT_EQ(ld->operands[1].offset, 64);

  const Module histogram = parse_fixture("histogram");
  const Function& h = histogram.functions[0];
  const Instruction* atom = instruction_at(h, 82);
  ASSERT_NE(atom, nullptr);
  EXPECT_EQ(atom->opcode, "atom");
  EXPECT_EQ(atom->modifiers, (std::vector<std::string>{"shared", "add", "u32"}));
  EXPECT_EQ(atom->operands[2].kind, Kind::imm_int);
  EXPECT_EQ(atom->operands[2].bits, 1u);
  EXPECT_EQ(count_instructions(h, "atom.global.add.u32"), 1);
  EXPECT_EQ(count_instructions(h, "bra.uni"), 1);

  const Module transpose = parse_fixture("transpose");
  EXPECT_EQ(transpose.functions[0].locals[0].size_bytes(), 32u * 33u * 4u);

  const Module math = parse_fixture("math_mix");
  const Function& mf = math.functions[0];
  const Instruction* neg = instruction_at(mf, 119);
  ASSERT_NE(neg, nullptr);
  EXPECT_EQ(neg->operands[1].kind, Kind::address);
  EXPECT_EQ(neg->operands[1].name, "%rd23");
  EXPECT_EQ(neg->operands[1].offset, -4);
  const Instruction* dmul = instruction_at(mf, 158);
  ASSERT_NE(dmul, nullptr);
  EXPECT_EQ(dmul->operands[2].kind, Kind::imm_f64);
  EXPECT_EQ(dmul->operands[2].bits, 0x3BF921FB54442D19ull);
  const Variable* table = math.find_global("__cudart_i2opi_f");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->init.size(), 24u);
  EXPECT_EQ(table->init[1], 144u);
}

TEST(Fixtures, ConstantAndDeviceGlobalsWithInitializers) {
  const Module m = parse_fixture("globals_local");
  const Variable* coeffs = m.find_global("coeffs");
  ASSERT_NE(coeffs, nullptr);
  EXPECT_EQ(coeffs->space, StateSpace::const_);
  ASSERT_EQ(coeffs->init.size(), 16u);
  float values[4];
  std::memcpy(values, coeffs->init.data(), 16);
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[3], 0.125f);

  const Variable* counter = m.find_global("counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_FALSE(counter->array_size.has_value());
  EXPECT_EQ(counter->type, "u32");
  EXPECT_EQ(counter->init, (std::vector<std::uint8_t>{7, 0, 0, 0}));

  const Variable* table = m.find_global("table");
  ASSERT_NE(table, nullptr);
  double d[3];
  std::memcpy(d, table->init.data(), 24);
  EXPECT_EQ(d[0], 1.5);
  EXPECT_EQ(d[1], -2.25);
  EXPECT_EQ(d[2], 1e300);

  const Variable* ptr = m.find_global("counter_ptr");
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(ptr->init, std::vector<std::uint8_t>(8, 0));
  ASSERT_EQ(ptr->init_symbols.size(), 1u);
  EXPECT_EQ(ptr->init_symbols[0].first, 0u);
  EXPECT_EQ(ptr->init_symbols[0].second, "counter");

  const Function& f = m.functions[0];
  const Instruction* cload = instruction_at(f, 49);
  ASSERT_NE(cload, nullptr);
  EXPECT_EQ(cload->modifiers, (std::vector<std::string>{"const", "f32"}));
  EXPECT_EQ(cload->operands[1].name, "coeffs");
  EXPECT_EQ(cload->operands[1].offset, 4);
  const Instruction* generic_atom = instruction_at(f, 134);
  ASSERT_NE(generic_atom, nullptr);
  EXPECT_EQ(generic_atom->modifiers, (std::vector<std::string>{"max", "s32"}));
  EXPECT_EQ(generic_atom->operands[1].name, "%rd14");
  EXPECT_EQ(count_instructions(f, "st.local.v4.f32"), 4);
}

TEST(Fixtures, TemplateInstantiationsAreWeakEntries) {
  const Module m = parse_fixture("template_kernel");
  ASSERT_EQ(m.functions.size(), 3u);
  for (const Function& f : m.functions) {
    EXPECT_TRUE(f.is_entry);
    EXPECT_EQ(f.linkage, "weak");
  }
  const Function* u16 = m.find_function("_Z5scaleItLi5EEvPT_S0_i");
  ASSERT_NE(u16, nullptr);
  EXPECT_EQ(u16->params[1].type, "u16");
  EXPECT_EQ(u16->params[1].size_bytes(), 2u);
  EXPECT_EQ(u16->param_bytes, 16u); // 8 + 2, then the u32 aligned to 12
  const Module saxpy = parse_fixture("saxpy");
  EXPECT_EQ(saxpy.functions[1].params[0].type, "f64");
}

TEST(Fixtures, HalfPrecisionInlineAsmBlocks) {
  const Module m = parse_fixture("half_math");
  const Function& f = m.functions[0];
  EXPECT_EQ(count_instructions(f, "add.f16"), 1);
  EXPECT_EQ(count_instructions(f, "mul.f16"), 1);
  EXPECT_EQ(count_instructions(f, "cvt.f32.f16"), 1);
  EXPECT_EQ(count_instructions(f, "ld.global.u16"), 2);
}

TEST(Fixtures, VectorAddReadOnlyLoads) {
  const Module m = parse_fixture("vector_add");
  EXPECT_EQ(count_instructions(m.functions[0], "ld.global.nc.f32"), 2);
  EXPECT_EQ(m.functions[0].params.size(), 4u);
}

} // namespace
} // namespace gpurun::ptx::test
