#include "capture/replay_spec.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>

namespace gpurun::capture {
namespace {

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

template <class T> void put(std::vector<std::byte>& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

constexpr std::string_view k_saxpy_ptx = R"(.version 8.8
.target sm_90
.address_size 64
.visible .entry _Z5saxpyifPKfPf(
	.param .u32 _Z5saxpyifPKfPf_param_0,
	.param .f32 _Z5saxpyifPKfPf_param_1,
	.param .u64 .ptr .align 1 _Z5saxpyifPKfPf_param_2,
	.param .u64 .ptr .align 1 _Z5saxpyifPKfPf_param_3
)
{
	ret;
}
)";

// saxpy(int n, float a, const float* x, float* y) with x whole and y 16 bytes into its
// allocation.
LaunchRecord saxpy_launch() {
  LaunchRecord r;
  r.kernel = "_Z5saxpyifPKfPf";
  r.ordinal = 2;
  r.grid[0] = 4;
  r.block[0] = 32;
  r.slots = {{0, 4}, {4, 4}, {8, 8}, {16, 8}};
  r.params.resize(24);
  put(r.params, 0, 16u);
  put(r.params, 4, 0.1f);
  put(r.params, 8, std::uint64_t{0x7000});
  put(r.params, 16, std::uint64_t{0x9010});
  r.image_kind = kit::ImageKind::ptx;
  r.image = bytes_of(k_saxpy_ptx);
  r.image.push_back(std::byte{0});
  const Allocation x{0x7000, 64, MemoryKind::device};
  const Allocation y{0x9000, 128, MemoryKind::device};
  r.pointers = {{2, 0, x, 0}, {3, 0, y, 16}};
  r.memory = {{{x, 0, 64}, {}, {}}, {{y, 0, 128}, {}, {}}};
  r.device = "NVIDIA H200";
  r.arch = "sm_90";
  return r;
}

TEST(ReplaySpec, DemangledParameterTypes) {
  EXPECT_EQ(demangled_parameter_types("_Z5saxpyifPKfPf"),
            (std::vector<std::string>{"int", "float", "float const*", "float*"}));
  EXPECT_EQ(demangled_parameter_types("_Z5saxpyIfEvT_PKS0_PS0_i"),
            (std::vector<std::string>{"float", "float const*", "float*", "int"}));
  EXPECT_EQ(demangled_parameter_types("_Z2k0v"), std::vector<std::string>{});
  EXPECT_TRUE(demangled_parameter_types("scalar_add").empty());
  EXPECT_TRUE(demangled_parameter_types("_Zgarbage").empty());
}

TEST(ReplaySpec, PointersWholeAreBuffersAndIntoTheMiddleAreMemoryWithAnOffset) {
  const LaunchRecord r = saxpy_launch();
  EXPECT_EQ(window_dtype(r, 0), DType::f32);
  const auto spec = replay_spec(r);
  EXPECT_EQ(spec["source"], "module.ptx");
  EXPECT_EQ(spec["kernel"], "_Z5saxpyifPKfPf");
  EXPECT_EQ(spec["grid"], nlohmann::ordered_json({4, 1, 1}));
  EXPECT_EQ(spec["args"], nlohmann::ordered_json({"p0=u32:16", "p1=f32:0.1",
                                          "a0=f32[16]:@memory/a0.before.npy", "p3=&a1+16"}));
  EXPECT_EQ(spec["memory"], nlohmann::ordered_json({"a1=f32[32]:@memory/a1.before.npy"}));
  EXPECT_EQ(spec["expect"]["a0"], "@memory/a0.after.npy");
  EXPECT_EQ(spec["expect"]["a1"], "@memory/a1.after.npy");
  EXPECT_EQ(spec["exact"], true);
  EXPECT_EQ(spec["description"], "Launch 2 of _Z5saxpyifPKfPf, captured on NVIDIA H200 (sm_90)");
}

TEST(ReplaySpec, TwoPointersIntoOneAllocationShareItsMemoryEntry) {
  LaunchRecord r = saxpy_launch();
  const Allocation x{0x7000, 64, MemoryKind::device};
  put(r.params, 16, std::uint64_t{0x7000});
  r.pointers = {{2, 0, x, 0}, {3, 0, x, 0}};
  r.memory = {{{x, 0, 64}, {}, {}}};
  const auto spec = replay_spec(r);
  EXPECT_EQ(spec["args"][2], "p2=&a0");
  EXPECT_EQ(spec["args"][3], "p3=&a0");
  EXPECT_EQ(spec["memory"], nlohmann::ordered_json({"a0=f32[16]:@memory/a0.before.npy"}));
}

TEST(ReplaySpec, AStructWithAPointerIsARecordAndUntypedMemoryIsBytes) {
  LaunchRecord r;
  r.kernel = "view_kernel"; // extern "C": no C types
  r.slots = {{0, 16}, {16, 4}};
  r.params.resize(20);
  put(r.params, 0, std::uint64_t{0x7008});
  put(r.params, 8, 5u);
  put(r.params, 12, 2.0f);
  put(r.params, 16, 3u);
  r.image_kind = kit::ImageKind::cubin;
  r.image = bytes_of("\x7f" "ELF");
  const Allocation a{0x7000, 60, MemoryKind::pool};
  r.pointers = {{0, 0, a, 8}};
  r.memory = {{{a, 0, 60}, {}, {}}};
  const auto spec = replay_spec(r);
  EXPECT_EQ(spec["source"], "module.cubin");
  EXPECT_EQ(spec["args"], nlohmann::ordered_json({"p0={&a0+8, u32:0x5, u32:0x40000000}",
                                          "p1={u32:0x3}"}));
  EXPECT_EQ(spec["memory"], nlohmann::ordered_json({"a0=u8[60]:@memory/a0.before.npy"}));
}

TEST(ReplaySpec, AWindowOfAPoolSlabIsReplayedAsItsOwnBuffer) {
  LaunchRecord r = saxpy_launch();
  const Allocation slab{0x100000, 1 << 20, MemoryKind::device};
  put(r.params, 8, std::uint64_t{0x101000});
  put(r.params, 16, std::uint64_t{0x102000});
  r.pointers = {{2, 0, slab, 0x1000}, {3, 0, slab, 0x2000}};
  r.memory = {{{slab, 0x1000, 0x1000}, {}, {}}, {{slab, 0x2000, 0x800}, {}, {}}};
  r.incomplete = {"a1: bytes [8192, 10240) of a 1048576-byte allocation saved"};
  const auto spec = replay_spec(r);
  EXPECT_EQ(spec["args"][2], "a0=f32[1024]:@memory/a0.before.npy");
  EXPECT_EQ(spec["args"][3], "a1=f32[512]:@memory/a1.before.npy");
  EXPECT_NE(spec["description"].get<std::string>().find("; incomplete: a1: bytes [8192"),
            std::string::npos);
}

TEST(ReplaySpec, ANanScalarKeepsItsBitsAsARecord) {
  LaunchRecord r = saxpy_launch();
  put(r.params, 4, 0x7fc00001u);
  EXPECT_EQ(replay_spec(r)["args"][1], "p1={u32:0x7fc00001}");
}

} // namespace
} // namespace gpurun::capture
