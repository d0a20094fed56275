// Tensor cores on the CPU backend against what an H200 gave for the same inputs
// (tests/data/tensor/gpu/, kept by scripts/tensor/keep.py): the fragment layouts of every wmma
// shape and type and of ldmatrix, the arithmetic of each product form, and the outputs of the
// conformance kernels (mma_forms, wmma_gemm, wmma_shapes, tf32_convert, async_copy) — all bit
// for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string kData = "tests/data/tensor/";

// A kept file, relative to the source tree (gpurun itself runs there).
std::filesystem::path kept(const std::string& relative) {
  return source_dir() / relative;
}

// The element bytes of an .npy file (its header aside).
std::string npy_data(const std::filesystem::path& p) {
  const HostBuffer b = read_npy(p.is_absolute() ? p : kept(p.string()));
  return {reinterpret_cast<const char*>(b.data()), b.size_bytes()};
}

// The probes write f32 indices; the kept capture has them as int16.
std::vector<int> as_indices(const std::filesystem::path& p) {
  const HostBuffer b = read_npy(p.is_absolute() ? p : kept(p.string()));
  std::vector<int> out(b.element_count());
  if (b.dtype() == DType::f32) {
    std::vector<float> v(out.size());
    std::memcpy(v.data(), b.data(), v.size() * sizeof(float));
    for (std::size_t i = 0; i < v.size(); ++i)
      out[i] = static_cast<int>(v[i]);
  } else {
    std::vector<std::int16_t> v(out.size());
    std::memcpy(v.data(), b.data(), v.size() * sizeof(std::int16_t));
    for (std::size_t i = 0; i < v.size(); ++i)
      out[i] = v[i];
  }
  return out;
}

TEST(TensorCoreE2E, FragmentLayoutsAreTheH200s) {
  const auto dir = temp_dir();
  const std::string probes = kData + "layout.cu --backend cpu -q --grid 1 --block 32 ";
  auto r = run_gpurun(kData + "layout.json --backend cpu -q --save " + (dir / "layout").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun(probes + "--kernel layouts8 --arg lo=u8[1024]:iota --arg hi=u8[1024]:@" + kData +
                 "index_high_byte.npy --arg idx=i32[1024]:iota --arg out=f32[15,32,32]:0 --save " +
                 (dir / "layout8").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun(probes + "--kernel ldmatrix_dump --arg out=u32[6,32,4]:0 --save " +
                 (dir / "ldmatrix").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"layout", "layout8"}) {
    SCOPED_TRACE(name);
    const auto cpu = as_indices(dir / name / "out.npy");
    const auto gpu = as_indices(kData + "gpu/" + name + ".npy");
    ASSERT_EQ(cpu.size(), gpu.size());
    for (std::size_t i = 0; i < cpu.size(); ++i)
      ASSERT_EQ(cpu[i], gpu[i]) << "kind " << i / 1024 << ", lane " << i / 32 % 32 << ", element "
                                << i % 32;
  }
  EXPECT_EQ(npy_data(dir / "ldmatrix" / "out.npy"), npy_data(kData + "gpu/ldmatrix.npy"));
}

struct Probe {
  const char* kernel;
  int m, n, k;
  const char *atype, *ctype;
};

TEST(TensorCoreE2E, ProductsAreTheH200sBitForBit) {
  const auto dir = temp_dir();
  const int tiles = 12;
  for (const Probe& p :
       {Probe{"wmma_f16_f32", 16, 16, 16, "f16", "f32"},
        Probe{"wmma_f16_f16", 16, 16, 16, "f16", "f16"},
        Probe{"wmma_bf16_f32", 16, 16, 16, "bf16", "f32"},
        Probe{"wmma_tf32_f32", 16, 16, 8, "f32", "f32"}, Probe{"wmma_f64", 8, 8, 4, "f64", "f64"},
        Probe{"mma_f16_k16", 16, 8, 16, "f16", "f32"},
        Probe{"mma_f16_k8", 16, 8, 8, "f16", "f32"}}) {
    SCOPED_TRACE(p.kernel);
    const std::string in = kData + "gpu/" + p.kernel;
    auto arg = [&](const char* name, const char* type, int count, const std::string& fill) {
      return fmt::format(" --arg '{}={}[{}]:{}'", name, type, tiles * count, fill);
    };
    const auto out = dir / p.kernel;
    auto r =
        run_gpurun(kData + "numerics.cu --backend cpu -q --kernel " + p.kernel +
                   " --grid 3 --block 128" + arg("A", p.atype, p.m * p.k, "@" + in + "_A.npy") +
                   arg("B", p.atype, p.k * p.n, "@" + in + "_B.npy") +
                   arg("C", p.ctype, p.m * p.n, "@" + in + "_C.npy") +
                   arg("D", p.ctype, p.m * p.n, "0") + " --arg tiles=12 --save " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(npy_data(out / "D.npy"), npy_data(in + "_D.npy"));
  }
  // FP8 (m16n8k32): three kernels over the same bytes.
  for (const char* kernel : {"mma_e4m3", "mma_e5m2", "mma_e4m3_e5m2"}) {
    SCOPED_TRACE(kernel);
    const std::string in = kData + "gpu/fp8_";
    const auto out = dir / kernel;
    auto r = run_gpurun(kData + "fp8.cu --backend cpu -q --kernel " + kernel +
                        " --grid 3 --block 128 --arg A=u8[6144]:@" + in +
                        "A.npy --arg B=u8[3072]:@" + in + "B.npy --arg C=f32[1536]:@" + in +
                        "C.npy --arg D=f32[1536]:0 "
                        "--arg tiles=12 --save " +
                        out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(npy_data(out / "D.npy"), npy_data(kData + "gpu/" + kernel + "_D.npy"));
  }
}

TEST(TensorCoreE2E, ConformanceKernelsGiveTheH200sOutputs) {
  const auto dir = temp_dir();
  std::size_t compared = 0;
  for (const char* spec : {"mma_forms", "wmma_gemm", "wmma_shapes", "tf32_convert", "async_copy"}) {
    SCOPED_TRACE(spec);
    auto r = run_gpurun(std::string("tests/data/conformance/") + spec +
                        ".json --backend cpu -q --save " + (dir / spec).string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& entry :
         std::filesystem::directory_iterator(kept(kData + "gpu/conformance/" + spec))) {
      SCOPED_TRACE(entry.path().filename().string());
      EXPECT_EQ(npy_data(dir / spec / entry.path().filename()), npy_data(entry.path()));
      ++compared;
    }
  }
  EXPECT_EQ(compared, 9u); // every output buffer the GPU wrote
}

} // namespace
} // namespace gpurun::test
