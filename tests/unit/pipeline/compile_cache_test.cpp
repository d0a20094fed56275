#include "pipeline/compile_cache.hpp"

#include <atomic>
#include <cstring>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "base/detail/sha256.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {
namespace fs = std::filesystem;

// FIPS 180-4 / NIST CAVP example vectors.
TEST(Sha256, FipsVectors) {
  EXPECT_EQ(detail::sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(detail::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(detail::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(detail::sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                               "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, MillionAsInPieces) {
  detail::Sha256 h;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    h.update(chunk);
  EXPECT_EQ(h.finish_hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, SplitUpdatesEqualOneUpdate) {
  const std::string text(200, 'x');
  for (std::size_t cut : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 199u}) {
    detail::Sha256 h;
    h.update(std::string_view(text).substr(0, cut));
    h.update(std::string_view(text).substr(cut));
    EXPECT_EQ(h.finish_hex(), detail::sha256_hex(text)) << cut;
  }
}

CompileResult sample_result(std::string ptx = ".version 9.0\n.entry k() { ret; }") {
  CompileResult r;
  r.ok = true;
  r.log = "warning: something";
  r.binary_format = "ptx";
  r.binary.resize(ptx.size());
  std::memcpy(r.binary.data(), ptx.data(), ptx.size());
  r.lowered_names = {{"saxpy<float>", "_Z5saxpyIfEvT_PKS0_PS0_i"}, {"k", "k"}};
  r.compiler_version = "nvrtc 13.0";
  r.target = "compute_75";
  return r;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

TEST(CompileCache, MissThenHitRoundTripsEveryField) {
  CompileCache cache(gpurun::test::temp_dir() / "cache");
  KernelSource src{"__global__ void k() {}", {}, Language::cuda};
  const std::string key = cache.key(src, {}, "nvrtc 13.0 compute_75", "cpu");
  EXPECT_EQ(key.size(), 64u);
  EXPECT_FALSE(cache.load(key).has_value());
  const CompileResult stored = sample_result();
  cache.store(key, stored);
  auto hit = cache.load(key);
  ASSERT_TRUE(hit.has_value());
  EXPECT_TRUE(hit->ok);
  EXPECT_EQ(hit->log, stored.log);
  EXPECT_EQ(hit->binary_format, "ptx");
  EXPECT_EQ(hit->binary, stored.binary);
  EXPECT_EQ(hit->lowered_names, stored.lowered_names);
  EXPECT_EQ(hit->compiler_version, "nvrtc 13.0");
  EXPECT_EQ(hit->target, "compute_75");
  auto info = cache.info();
  EXPECT_EQ(info.entries, 1u);
  EXPECT_EQ(info.bytes, fs::file_size(cache.entry_path(key)));
  EXPECT_EQ(cache.clear(), 1u);
  EXPECT_EQ(cache.info().entries, 0u);
  EXPECT_FALSE(cache.load(key).has_value());
}

TEST(CompileCache, KeyCoversSourceOptionsCompilerAndBackend) {
  CompileCache cache(gpurun::test::temp_dir());
  KernelSource src{"__global__ void k() {}", {}, Language::cuda};
  CompileOptions opts;
  const std::string base = cache.key(src, opts, "nvrtc 13.0", "cpu");
  EXPECT_EQ(base, cache.key(src, opts, "nvrtc 13.0", "cpu")); // deterministic
  KernelSource other = src;
  other.text += " ";
  EXPECT_NE(base, cache.key(other, opts, "nvrtc 13.0", "cpu"));
  EXPECT_NE(base, cache.key(src, opts, "nvrtc 12.8", "cpu"));
  EXPECT_NE(base, cache.key(src, opts, "nvrtc 13.0", "cuda"));
  CompileOptions d = opts;
  d.defines = {"N=4"};
  EXPECT_NE(base, cache.key(src, d, "nvrtc 13.0", "cpu"));
  CompileOptions a = opts;
  a.arch = "sm_90";
  EXPECT_NE(base, cache.key(src, a, "nvrtc 13.0", "cpu"));
  CompileOptions s = opts;
  s.std_version = "c++20";
  EXPECT_NE(base, cache.key(src, s, "nvrtc 13.0", "cpu"));
  CompileOptions n = opts;
  n.name_expressions = {"saxpy<float>"};
  EXPECT_NE(base, cache.key(src, n, "nvrtc 13.0", "cpu"));
  // Field boundaries matter: two defines are not one define with the text of both.
  CompileOptions d1 = opts, d2 = opts;
  d1.defines = {"AB", "C"};
  d2.defines = {"A", "BC"};
  EXPECT_NE(cache.key(src, d1, "x", "cpu"), cache.key(src, d2, "x", "cpu"));
}

TEST(CompileCache, KeyChangesWhenAnIncludedHeaderChanges) {
  const fs::path dir = gpurun::test::temp_dir();
  fs::create_directories(dir / "inc" / "sub");
  write(dir / "common.cuh", "#include \"sub/deep.cuh\"\n#define SCALE 2\n");
  write(dir / "inc" / "sub" / "deep.cuh", "#define DEEP 1\n");
  write(dir / "inc" / "lib.h", "#define LIB 1\n");
  write(dir / "inc" / "sub" / "lib_detail.h", "#define LD 1\n");
  KernelSource src{"#include \"common.cuh\"\n  #  include <lib.h>\n#include <cuda_fp16.h>\n"
                   "__global__ void k() {}",
                   dir / "k.cu", Language::cuda};
  CompileOptions opts;
  opts.include_dirs = {(dir / "inc").string()};
  CompileCache cache(dir / "cache");
  const std::string k1 = cache.key(src, opts, "c", "cpu");

  write(dir / "common.cuh", "#include \"sub/deep.cuh\"\n#define SCALE 3\n");
  const std::string k2 = cache.key(src, opts, "c", "cpu");
  EXPECT_NE(k1, k2) << "a directly included header changed";

  write(dir / "inc" / "sub" / "deep.cuh", "#define DEEP 2\n"); // found through -I, recursively
  const std::string k3 = cache.key(src, opts, "c", "cpu");
  EXPECT_NE(k2, k3) << "a header included by a header changed";

  write(dir / "inc" / "lib.h", "#define LIB 2\n");
  const std::string k4 = cache.key(src, opts, "c", "cpu");
  EXPECT_NE(k3, k4) << "an <angle> header found in an -I folder changed";

  write(dir / "unrelated.cuh", "#define X 1\n");
  EXPECT_EQ(k4, cache.key(src, opts, "c", "cpu")) << "files that are not included do not count";
}

TEST(CompileCache, IncludeCyclesTerminate) {
  const fs::path dir = gpurun::test::temp_dir();
  write(dir / "a.cuh", "#include \"b.cuh\"\n");
  write(dir / "b.cuh", "#include \"a.cuh\"\n");
  KernelSource src{"#include \"a.cuh\"\n", dir / "k.cu", Language::cuda};
  CompileCache cache(dir / "cache");
  EXPECT_EQ(cache.key(src, {}, "c", "cpu").size(), 64u);
}

TEST(CompileCache, CorruptOrTruncatedEntryIsAMissAndIsRemoved) {
  CompileCache cache(gpurun::test::temp_dir() / "cache");
  const std::string key(64, 'a');
  cache.store(key, sample_result());
  const fs::path path = cache.entry_path(key);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 60u);

  std::string flipped = bytes;
  flipped[bytes.size() - 3] ^= 0x20; // payload damage: checksum mismatch
  write(path, flipped);
  EXPECT_FALSE(cache.load(key).has_value());
  EXPECT_FALSE(fs::exists(path)) << "a corrupt entry is removed so it can be rebuilt";

  write(path, bytes.substr(0, bytes.size() - 10)); // truncated
  EXPECT_FALSE(cache.load(key).has_value());
  write(path, bytes.substr(0, 20)); // shorter than the header
  EXPECT_FALSE(cache.load(key).has_value());
  write(path, "not a cache entry at all");
  EXPECT_FALSE(cache.load(key).has_value());
  write(path, "");
  EXPECT_FALSE(cache.load(key).has_value());

  cache.store(key, sample_result()); // rebuilt
  EXPECT_TRUE(cache.load(key).has_value());
}

TEST(CompileCache, ConcurrentThreadsLeaveAValidEntry) {
  CompileCache cache(gpurun::test::temp_dir() / "cache");
  const std::string key(64, 'b');
  std::vector<std::thread> threads;
  std::atomic<int> bad_reads{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      // Each writer stores a different, large binary; a reader must never see a mixture.
      const CompileResult mine = sample_result(std::string(100000 + t, static_cast<char>('a' + t)));
      for (int i = 0; i < 30; ++i) {
        cache.store(key, mine);
        if (auto r = cache.load(key)) {
          const auto first = r->binary.front();
          for (auto b : r->binary) {
            if (b != first) {
              ++bad_reads;
              break;
            }
          }
          if (r->binary.size() != 100000 + static_cast<std::size_t>(first) - 'a')
            ++bad_reads;
        }
      }
    });
  }
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(bad_reads.load(), 0);
  auto final_entry = cache.load(key);
  ASSERT_TRUE(final_entry.has_value());
  EXPECT_EQ(cache.info().entries, 1u);
  for (const auto& e : fs::directory_iterator(cache.info().dir)) {
    EXPECT_EQ(e.path().extension(), ".entry") << "no temporary file is left: " << e.path();
  }
}

TEST(CompileCache, ConcurrentProcessesLeaveAValidEntry) {
  CompileCache cache(gpurun::test::temp_dir() / "cache");
  const std::string key(64, 'c');
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const CompileResult mine = sample_result(std::string(50000, static_cast<char>('k' + p)));
      for (int i = 0; i < 40; ++i) {
        cache.store(key, mine);
        (void)cache.load(key);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto entry = cache.load(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->binary.size(), 50000u);
  EXPECT_EQ(cache.info().entries, 1u);
}

TEST(CompileCache, ClearLeavesForeignFilesAlone) {
  const fs::path dir = gpurun::test::temp_dir() / "cache";
  CompileCache cache(dir);
  cache.store(std::string(64, 'd'), sample_result());
  cache.store(std::string(64, 'e'), sample_result());
  write(dir / "notes.txt", "mine");
  EXPECT_EQ(cache.info().entries, 2u);
  EXPECT_EQ(cache.clear(), 2u);
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
}

TEST(CompileCache, InfoOfAMissingDirectoryIsEmpty) {
  CompileCache cache(gpurun::test::temp_dir() / "does" / "not" / "exist");
  auto info = cache.info();
  EXPECT_EQ(info.entries, 0u);
  EXPECT_EQ(info.bytes, 0u);
  EXPECT_EQ(cache.clear(), 0u);
}

TEST(CompileCache, DefaultDirFollowsTheEnvironment) {
  const char* saved_cache = std::getenv("GPURUN_CACHE_DIR");
  const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
  const char* saved_home = std::getenv("HOME");
  std::string keep_cache = saved_cache ? saved_cache : "";
  std::string keep_xdg = saved_xdg ? saved_xdg : "";
  std::string keep_home = saved_home ? saved_home : "";

  setenv("GPURUN_CACHE_DIR", "/tmp/explicit", 1);
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(CompileCache::default_dir(), fs::path("/tmp/explicit"));
  unsetenv("GPURUN_CACHE_DIR");
  EXPECT_EQ(CompileCache::default_dir(), fs::path("/tmp/xdg/gpurun"));
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  EXPECT_EQ(CompileCache::default_dir(), fs::path("/home/someone/.cache/gpurun"));
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(CompileCache::default_dir(), fs::path("/home/someone/.cache/gpurun"));

  auto restore = [](const char* name, const char* saved, const std::string& value) {
    if (saved)
      setenv(name, value.c_str(), 1);
    else
      unsetenv(name);
  };
  restore("GPURUN_CACHE_DIR", saved_cache, keep_cache);
  restore("XDG_CACHE_HOME", saved_xdg, keep_xdg);
  restore("HOME", saved_home, keep_home);
}

} // namespace
} // namespace gpurun
