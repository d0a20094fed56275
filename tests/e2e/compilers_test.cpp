// End-to-end: `--compiler clang` and `--compiler nvcc` through the real binary on the CPU backend,
// and NVRTC where the loader path does not lead to its toolkit. Skips, saying why, when a compiler
// is not installed.
#include <fstream>

#include <elf.h>
#include <link.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu_clang = " --backend cpu --no-cache --compiler clang";

class CompilersE2E : public ::testing::Test {
protected:
  void SetUp() override {
    // Exit 5 names what is missing when clang cannot be used.
    static const RunResult probe = run_gpurun("kernels/examples/scalar_add.json -q" + cpu_clang);
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
};

TEST_F(CompilersE2E, SeedScalarAddWithClang) {
  auto r = run_gpurun("kernels/examples/scalar_add.cu --grid 1 --block 20 "
                      "--arg 'vector=f32[20]:iota' --arg 'size=20' --arg 'scalar=20.0'" +
                      cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("39."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(clang "), std::string::npos) << "the timing line names the compiler\n"
                                                      << r.out;
}

TEST_F(CompilersE2E, JsonReportNamesTheCompiler) {
  auto r = run_gpurun("kernels/examples/saxpy.json --json" + cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc["compiler"].is_string()) << doc.dump();
  EXPECT_EQ(doc["compiler"].get<std::string>().rfind("clang ", 0), 0u) << doc["compiler"];
  EXPECT_EQ(doc["kernel"], "saxpy<float>");
  EXPECT_EQ(doc["lowered_name"], "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

TEST_F(CompilersE2E, EveryBundledExamplePassesItsChecksWithClang) {
  for (const char* spec : {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial"}) {
    auto r = run_gpurun(std::string("kernels/examples/") + spec + ".json" + cpu_clang);
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.out << r.err;
  }
  auto r = run_gpurun("kernels/examples/print_threads.json" + cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("block_idx: [1, 1, 0]\tthread_idx: [3, 3, 1]\tglobal_idx: [7, 7, 1]"),
            std::string::npos)
      << r.out;
}

std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The conformance kernels (IEEE edge cases, __half, warp shuffles and votes, shared-memory atomics,
// tiling) give the same bits whichever compiler built them.
TEST_F(CompilersE2E, ConformanceKernelsMatchNvrtcBitForBit) {
  const auto dir = temp_dir();
  std::size_t compared = 0;
  for (const char* spec : {"half_math", "histogram", "matmul_tiled", "numeric_edges", "transpose",
                           "warp_reduce", "block_collectives", "minmax_ftz", "convert_modifiers",
                           "async_copy", "mma_forms", "tf32_convert", "wmma_gemm", "wmma_shapes"}) {
    SCOPED_TRACE(spec);
    const std::string path = std::string("tests/data/conformance/") + spec + ".json";
    const auto clang_dir = dir / spec / "clang";
    auto r = run_gpurun(path + cpu_clang + " -q --save " + clang_dir.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto nvrtc_dir = dir / spec / "nvrtc";
    r = run_gpurun(path + " --backend cpu --no-cache --compiler nvrtc -q --save " +
                   nvrtc_dir.string());
    if (r.exit_code == 5)
      GTEST_SKIP() << "no NVRTC to compare with: " << r.err;
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& entry : std::filesystem::directory_iterator(nvrtc_dir)) {
      const auto other = clang_dir / entry.path().filename();
      ASSERT_TRUE(std::filesystem::exists(other)) << other;
      EXPECT_EQ(file_bytes(entry.path()), file_bytes(other)) << entry.path().filename();
      ++compared;
    }
  }
  EXPECT_GE(compared, 16u); // every buffer, inputs included
}

TEST_F(CompilersE2E, SpecChoosesTheCompilerAndFlagsOverrideIt) {
  const auto dir = temp_dir();
  std::ofstream(dir / "k.cu") << "extern \"C\" __global__ void k(int* v) { v[0] = 5; }\n";
  std::ofstream(dir / "k.json") << R"({"source": "k.cu", "grid": [1], "block": [1],
    "args": ["v=i32[1]:0"], "compile": {"compiler": "clang"}})";
  auto r = run_gpurun((dir / "k.json").string() + " --backend cpu --no-cache --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["compiler"].get<std::string>().rfind("clang ", 0), 0u);
  std::ofstream(dir / "bad.json") << R"({"source": "k.cu", "grid": [1], "block": [1],
    "args": ["v=i32[1]:0"], "compile": {"compiler": "gcc"}})";
  r = run_gpurun((dir / "bad.json").string() + " --backend cpu");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("compile.compiler 'gcc'"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, UnknownCompilerIsAUsageError) {
  auto r = run_gpurun("kernels/examples/scalar_add.json --backend cpu --compiler gcc");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--compiler 'gcc': expected auto, nvrtc, clang or nvcc"), std::string::npos)
      << r.err;
}

TEST_F(CompilersE2E, CompileErrorExitsThreeNamingTheLine) {
  auto r =
      run_gpurun("tests/data/e2e/compile_error.cu --grid 1 --block 1 --arg 'x=f32[1]'" + cpu_clang);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("compile_error.cu:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undefined_name"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, MemcheckNamesTheCuLineFromClangsLineTables) {
  auto r = run_gpurun("tests/data/e2e/oob.cu --grid 1 --block 32 --arg 'x=f32[8]' --memcheck" +
                      cpu_clang);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("oob.cu:3"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, CompileCommandPrintsClangsPtxAndItsResources) {
  auto r =
      run_gpurun("compile kernels/examples/vector_add.cu --ptx --backend cpu --compiler clang");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Generated by LLVM NVPTX Back-End"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".entry vector_add("), std::string::npos) << r.out;
  r = run_gpurun("compile kernels/examples/vector_add.cu --resources --backend cpu --compiler "
                 "clang");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("vector_add"), std::string::npos) << r.out;
}

// ---- NVRTC whose toolkit is not on the loader path ----

std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// `gpurun devices --json`'s compilers, run with `prefix` in front of the binary (variables, a
/// loader); empty when it fails.
nlohmann::json compilers_with(const std::string& prefix) {
  const auto r = run_shell(prefix + sh_quote(gpurun_bin()) + " devices --json");
  if (r.exit_code != 0)
    return {};
  return nlohmann::json::parse(r.out).at("compilers");
}

/// The dynamic loader of this process (the main program's PT_INTERP). Running gpurun through it
/// with --inhibit-cache hides every library that only /etc/ld.so.cache knows of, as a toolkit
/// under /usr/local/cuda is, without the privileges a mount namespace needs.
std::string program_interpreter() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_INTERP) {
            *static_cast<std::string*>(data) =
                reinterpret_cast<const char*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            return 1;
          }
        return 0;
      },
      &found);
  return found;
}

class CompilersNvrtcE2E : public ::testing::Test {
protected:
  void SetUp() override {
    const auto compilers = compilers_with("");
    ASSERT_FALSE(compilers.is_null());
    const auto& nvrtc = compilers.at("nvrtc");
    if (nvrtc.at("available") == false)
      GTEST_SKIP() << "NVRTC unavailable: " << nvrtc.at("reason");
    m_location = nvrtc.at("location").get<std::string>();
    m_version = nvrtc.at("version").get<std::string>();
  }
  /// A folder holding the NVRTC library in use as `how` makes it: a link or a copy of the file.
  enum class Place { link, copy };
  [[nodiscard]] std::string nvrtc_in_a_folder_of_its_own(Place how) const {
    namespace fs = std::filesystem;
    const auto dir = temp_dir() / "nvrtc";
    fs::create_directories(dir);
    const auto real = fs::canonical(m_location);
    const auto placed = dir / fs::path(m_location).filename();
    std::error_code ec;
    if (how == Place::link) {
      fs::create_symlink(real, placed);
    } else {
      fs::create_hard_link(real, placed, ec); // the same file under another name, when it can be
      if (ec)
        fs::copy_file(real, placed);
    }
    return placed.string();
  }
  [[nodiscard]] std::string builtins_name() const { return "libnvrtc-builtins.so." + m_version; }

  std::string m_location;
  std::string m_version;
};

// The loader path without the toolkit, as on a machine where nobody ran ldconfig for it: in a
// mount namespace, /etc/ld.so.cache is replaced by one made from no configuration at all (the
// loader's own folders only). NVRTC then finds its builtins only because gpurun loaded them.
TEST_F(CompilersNvrtcE2E, CompilesWithTheToolkitOffTheLoaderPath) {
  if (const auto r = run_shell("unshare -m true"); r.exit_code != 0)
    GTEST_SKIP() << "unshare -m is not permitted here (it needs root or CAP_SYS_ADMIN): " << r.err;
  const auto dir = temp_dir();
  std::ofstream(dir / "empty.conf");
  const auto cache = (dir / "ld.so.cache").string();
  const auto made = run_shell("ldconfig -C " + sh_quote(cache) + " -f " +
                              sh_quote((dir / "empty.conf").string()));
  if (made.exit_code != 0)
    GTEST_SKIP() << "ldconfig cannot build a cache: " << made.err;
  const std::string inside =
      "mount --bind " + sh_quote(cache) + " /etc/ld.so.cache && { ldconfig -p | grep " +
      sh_quote(builtins_name()) + " >&2; exec env -u LD_LIBRARY_PATH " + sh_quote(gpurun_bin()) +
      " kernels/examples/scalar_add.json --backend cpu --compiler nvrtc "
      "--no-cache --json; }";
  const auto r = run_shell("unshare -m sh -c " + sh_quote(inside));
  // The dance worked: the loader knows no builtins (grep printed nothing).
  EXPECT_EQ(r.err.find(builtins_name()), std::string::npos)
      << "the cache still lists the builtins:\n"
      << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["compiler"], "nvrtc " + m_version);
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

// A copy of libnvrtc in a folder without its builtins, and a loader that cannot find them
// either: NVRTC is reported unusable, saying what is missing, and --compiler auto compiles with
// clang, saying why.
TEST_F(CompilersNvrtcE2E, AutoTakesClangWhenNvrtcHasNoBuiltinsAndSaysWhy) {
  const auto loader = program_interpreter();
  if (loader.empty())
    GTEST_SKIP() << "the test binary has no program interpreter to run gpurun through";
  const auto copy = nvrtc_in_a_folder_of_its_own(Place::copy);
  const std::string prefix = "env -u LD_LIBRARY_PATH GPURUN_NVRTC_LIBRARY=" + sh_quote(copy) + " " +
                             sh_quote(loader) + " --inhibit-cache ";
  const auto compilers = compilers_with(prefix);
  ASSERT_FALSE(compilers.is_null());
  if (compilers.at("nvrtc").at("available") == true)
    GTEST_SKIP() << builtins_name()
                 << " is in one of the loader's own folders: it cannot be hidden";
  if (compilers.at("clang").at("available") == false)
    GTEST_SKIP() << "clang unavailable: " << compilers.at("clang").at("reason");
  const auto reason = compilers.at("nvrtc").at("reason").get<std::string>();
  EXPECT_NE(reason.find(copy + " needs " + builtins_name() +
                        ", which is neither beside it nor on the loader path"),
            std::string::npos)
      << reason;
  EXPECT_EQ(compilers.at("selected"), "clang");

  const std::string run = prefix + sh_quote(gpurun_bin()) +
                          " kernels/examples/scalar_add.json --backend cpu --no-cache";
  auto r = run_shell(run + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto compiler = doc["compiler"].get<std::string>();
  EXPECT_EQ(compiler.rfind("clang ", 0), 0u) << compiler;
  EXPECT_NE(compiler.find(", in place of nvrtc: " + copy + " needs " + builtins_name()),
            std::string::npos)
      << compiler;
  EXPECT_EQ(doc["checks"][0]["passed"], true);

  r = run_shell(run + " --compiler nvrtc");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find(builtins_name()), std::string::npos) << r.err;
}

// Builtins that load but are not NVRTC's (a library with their soname and nothing else): NVRTC
// fails on its first compile, and --compiler auto compiles with clang, saying what NVRTC said.
TEST_F(CompilersNvrtcE2E, AutoTakesClangWhenNvrtcFailsOnItsOwnAndSaysWhy) {
  if (const auto probe = run_gpurun("kernels/examples/scalar_add.json -q" + cpu_clang);
      probe.exit_code == 5)
    GTEST_SKIP() << probe.err;
  const auto link = nvrtc_in_a_folder_of_its_own(Place::link);
  const auto folder = std::filesystem::path(link).parent_path();
  std::ofstream(folder / "empty.c") << "int gpurun_not_the_builtins;\n";
  const auto built = run_shell("cc -shared -fPIC -Wl,-soname," + builtins_name() + " -o " +
                               sh_quote((folder / builtins_name()).string()) + " " +
                               sh_quote((folder / "empty.c").string()));
  if (built.exit_code != 0)
    GTEST_SKIP() << "no C compiler to build a stand-in for the builtins: " << built.err;

  const std::string run = "GPURUN_NVRTC_LIBRARY=" + sh_quote(link) + " " + sh_quote(gpurun_bin()) +
                          " kernels/examples/scalar_add.json --backend cpu --no-cache";
  auto r = run_shell(run + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto compiler = doc["compiler"].get<std::string>();
  EXPECT_EQ(compiler.rfind("clang ", 0), 0u) << compiler;
  EXPECT_NE(compiler.find(", in place of nvrtc " + m_version +
                          ": nvrtcCompileProgram failed: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"),
            std::string::npos)
      << compiler;
  EXPECT_EQ(doc["checks"][0]["passed"], true);

  // Asked for by name, NVRTC's failure is the error.
  r = run_shell(run + " --compiler nvrtc");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(builtins_name()), std::string::npos) << "NVRTC's own words\n" << r.err;
}

// ---- nvcc ----

const std::string cpu_nvcc = " --backend cpu --no-cache --compiler nvcc";

class NvccE2E : public ::testing::Test {
protected:
  void SetUp() override {
    // Exit 5 names where nvcc was looked for when there is none.
    static const RunResult probe = run_gpurun("kernels/examples/scalar_add.json -q" + cpu_nvcc);
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
};

TEST_F(NvccE2E, ScalarAddSpecPassesItsCheck) {
  auto r = run_gpurun("kernels/examples/scalar_add.json --json" + cpu_nvcc);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["compiler"].get<std::string>().rfind("nvcc ", 0), 0u) << doc["compiler"];
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

TEST_F(NvccE2E, TemplateKernelByNameHasNvccsMangledName) {
  auto r = run_gpurun("kernels/examples/saxpy.json --json" + cpu_nvcc);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["kernel"], "saxpy<float>");
  EXPECT_EQ(doc["lowered_name"], "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

// A file as users keep it: a CPU reference and main() with a <<<>>> launch, the toolkit's library
// headers, its own header beside it, a macro from -D.
TEST_F(NvccE2E, WholeFileWithHostCodeCompilesAsItIs) {
  const auto dir = temp_dir();
  std::ofstream(dir / "twice.cuh")
      << "template <typename T> __device__ T twice(T x) { return x + x; "
         "}\n";
  std::ofstream(dir / "app.cu") << R"(#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include "twice.cuh"

template <typename T>
__global__ void scale(T* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = twice(v[i]) * SCALE;
}

void reference(std::vector<float>& v) {
  for (auto& x : v) x = 2 * x * SCALE;
}

int main() {
  std::vector<float> host(8, 1.0f);
  reference(host);
  float* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(float));
  scale<float><<<1, 8>>>(device, 8);
  std::printf("%f\n", host[0]);
}
)";
  auto r = run_gpurun((dir / "app.cu").string() +
                      " --kernel 'scale<float>' --grid 1 --block 8 --arg 'v=f32[8]:iota' "
                      "--arg n=8 -D SCALE=3 --json" +
                      cpu_nvcc);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["lowered_name"], "_Z5scaleIfEvPT_i");
  EXPECT_EQ(doc["buffers"]["v"]["values"], nlohmann::json::parse("[0, 6, 12, 18, 24, 30, 36, 42]"))
      << doc["buffers"]["v"].dump();
}

TEST_F(NvccE2E, CompileErrorExitsThreeNamingTheLine) {
  auto r =
      run_gpurun("tests/data/e2e/compile_error.cu --grid 1 --block 1 --arg 'x=f32[1]'" + cpu_nvcc);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("compile_error.cu(2): error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undefined_name"), std::string::npos) << r.err;
}

TEST_F(NvccE2E, MemcheckNamesTheCuLineFromNvccsLineTables) {
  auto r = run_gpurun("tests/data/e2e/oob.cu --grid 1 --block 32 --arg 'x=f32[8]' --memcheck" +
                      cpu_nvcc);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("oob.cu:3"), std::string::npos) << r.err;
}

// The cache keys on the compiler: what nvcc compiled is not handed to clang's or NVRTC's run.
TEST_F(NvccE2E, CompileCacheKeysOnTheCompiler) {
  const std::string cached = "GPURUN_CACHE_DIR=" + sh_quote(temp_dir().string()) + " " +
                             sh_quote(gpurun_bin()) +
                             " kernels/examples/scalar_add.json --backend cpu --json --compiler ";
  const auto run = [&](const std::string& compiler) {
    const auto r = run_shell(cached + compiler);
    EXPECT_EQ(r.exit_code, 0) << compiler << ": " << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
  };
  auto doc = run("nvcc");
  EXPECT_EQ(doc["timings_ms"]["cache_hit"], false);
  doc = run("nvcc");
  EXPECT_EQ(doc["timings_ms"]["cache_hit"], true);
  EXPECT_EQ(doc["compiler"].get<std::string>().rfind("nvcc ", 0), 0u) << doc["compiler"];
  doc = run("auto");
  if (doc.contains("compiler") && doc["compiler"].is_string()) {
    EXPECT_EQ(doc["timings_ms"]["cache_hit"], false);
    EXPECT_EQ(doc["compiler"].get<std::string>().rfind("nvcc ", 0), std::string::npos);
  }
}

TEST(NvccE2EWithout, MissingNvccExitsFiveNamingWhereItLooked) {
  auto r = run_shell("GPURUN_NVCC=/nonexistent/nvcc " + sh_quote(gpurun_bin()) +
                     " kernels/examples/scalar_add.json --backend cpu --no-cache --compiler nvcc");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("GPURUN_NVCC=/nonexistent/nvcc: no such program"), std::string::npos)
      << r.err;
}

TEST(NvccE2EWithout, DevicesListsNvccAvailableOrWithAReason) {
  const auto compilers = compilers_with("");
  ASSERT_TRUE(compilers.contains("nvcc")) << compilers.dump(2);
  const auto& nvcc = compilers.at("nvcc");
  if (nvcc.at("available") == true) {
    EXPECT_EQ(std::filesystem::path(nvcc.at("location").get<std::string>()).filename(), "nvcc");
    EXPECT_FALSE(nvcc.at("version").get<std::string>().empty());
  } else {
    EXPECT_NE(nvcc.at("reason").get<std::string>().find("nvcc"), std::string::npos);
  }
  // Never chosen without being asked for.
  EXPECT_NE(compilers.at("selected"), "nvcc");
  const auto missing = compilers_with("GPURUN_NVCC=/nonexistent/nvcc ");
  EXPECT_EQ(missing.at("nvcc").at("reason"), "GPURUN_NVCC=/nonexistent/nvcc: no such program");
}

TEST(NvccE2EWithout, AutoDoesNotFallBackToNvcc) {
  auto r = run_shell("GPURUN_NVRTC_LIBRARY=/nonexistent GPURUN_CLANG=/nonexistent " +
                     sh_quote(gpurun_bin()) +
                     " kernels/examples/scalar_add.json --backend cpu "
                     "--no-cache");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("no CUDA compiler: GPURUN_NVRTC_LIBRARY: /nonexistent"), std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurun::test
