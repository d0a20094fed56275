#include "backends/cpu/native/compiled_kernel.hpp"

#include <dlfcn.h>
#include <link.h>

#include <chrono>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string_view>
#include <system_error>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "backends/compilers/clang.hpp"
#include "base/atomic_file.hpp"
#include "base/detail/sha256.hpp"
#include "base/error.hpp"
#include "base/read_file.hpp"
#include "base/subprocess.hpp"

namespace gpurun::native {

namespace fs = std::filesystem;

namespace {

struct Header {
  std::string_view name;
  std::string_view text;
};

constexpr Header k_headers[] = {
#include "native_headers.inc"
};

// SHA-256 of the headers' text, computed by the build.
constexpr std::string_view k_headers_digest =
#include "native_headers_digest.inc"
    ;

// The flags are part of the cache key. No fast-math and no contraction: every operation is the
// one numeric.hpp wrote, so the bits are the interpreter's.
const std::vector<std::string>& flags() {
  static const std::vector<std::string> f{
      "-x",          "c++",         "-std=c++20",    "-O3",     "-march=native",
      "-fPIC",       "-shared",     "-ffp-contract=off", "-fno-math-errno", "-fvisibility=hidden",
      "-w",          "-lm"};
  return f;
}

/// What -march=native compiles for: the processor's model and feature flags.
std::string host_cpu() {
  static const std::string cpu = [] {
    // /proc files report no size: read as a stream.
    std::ifstream in("/proc/cpuinfo");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string out;
    for (std::string_view key : {"model name", "flags"}) {
      const auto at = text.find(key);
      if (at != std::string::npos)
        out += text.substr(at, text.find('\n', at) - at) + "\n";
    }
    return out;
  }();
  return cpu;
}

// What the object's code depends on besides the C++ text: ABI, compiler, flags, headers, CPU.
const std::string& setting() {
  static const std::string digest = [] {
    detail::Sha256 h;
    h.update(fmt::format("abi {}\n", native_abi::kVersion));
    const auto& clang = clang_cuda::probe();
    h.update(clang.location + " " + clang.version + "\n");
    for (const auto& f : flags())
      h.update(f + "\n");
    h.update(k_headers_digest);
    h.update(host_cpu());
    return h.finish_hex();
  }();
  return digest;
}

std::string key_of(const std::string& source) {
  detail::Sha256 h;
  h.update(setting());
  h.update(source);
  return h.finish_hex().substr(0, 32);
}

// The GNU build ID of the object holding this code (gpurun, or a test binary), in hex; empty
// without one. Any change to the translator links a binary with another ID.
std::string build_id() {
  struct Find {
    std::uintptr_t address = 0;
    std::string id;
  } find{reinterpret_cast<std::uintptr_t>(&build_id), {}};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* f = static_cast<Find*>(data);
        bool inside = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          inside = inside || (ph.p_type == PT_LOAD && f->address >= start &&
                              f->address < start + ph.p_memsz);
        }
        if (!inside)
          return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
          const auto* end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(at);
            const unsigned char* name = at + sizeof(ElfW(Nhdr));
            const unsigned char* desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0 && desc + note->n_descsz <= end) {
              for (std::uint32_t b = 0; b < note->n_descsz; ++b)
                f->id += fmt::format("{:02x}", desc[b]);
              return 1;
            }
            at = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &find);
  return find.id;
}

// Where remember() notes the translation of `kernel`; empty when this binary has no build ID.
fs::path index_of(const std::string& kernel, const fs::path& cache) {
  static const std::string id = build_id();
  if (id.empty())
    return {};
  detail::Sha256 h;
  h.update(setting());
  h.update(id);
  h.update(kernel);
  return cache / "native" / ("by-ptx-" + h.finish_hex().substr(0, 32));
}

/// The headers, written once per set of header texts under the cache.
fs::path include_dir(const fs::path& cache) {
  static std::mutex mutex;
  const fs::path dir = cache / "native" / ("include-" + std::string(k_headers_digest.substr(0, 16)));
  const std::lock_guard lock(mutex);
  for (const auto& header : k_headers) {
    const fs::path file = dir / header.name;
    if (fs::exists(file))
      continue;
    fs::create_directories(file.parent_path());
    write_file_atomic(file, header.text);
  }
  return dir;
}

std::vector<std::string> command(const fs::path& cache, const fs::path& cpp, const fs::path& out) {
  std::vector<std::string> argv{clang_cuda::probe().location};
  for (const auto& f : flags())
    argv.push_back(f);
  argv.push_back("-I" + include_dir(cache).string());
  argv.push_back(cpp.string());
  argv.push_back("-o");
  argv.push_back(out.string());
  return argv;
}

/// `text` as one word of a POSIX shell command.
std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

bool CompiledKernel::build_in_background(const std::string& source, const fs::path& cache) {
  const auto& clang = clang_cuda::probe();
  if (!clang.available)
    return false;
  const fs::path dir = cache / "native";
  const std::string key = key_of(source);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return false;
  const std::string stem = fmt::format("{}.{}.bg", key, ::getpid());
  const fs::path cpp = dir / (stem + ".cpp");
  const fs::path out = dir / (stem + ".so");
  try {
    write_file_atomic(cpp, source);
  } catch (const std::exception&) {
    return false;
  }
  // clang, then the rename that publishes the result, then the source removed: one shell line
  // that outlives this process.
  std::string line;
  for (const auto& word : command(cache, cpp, out))
    line += quoted(word) + " ";
  line += fmt::format(">/dev/null 2>&1 && mv -f {} {}; rm -f {} {}", quoted(out.string()),
                      quoted((dir / (key + ".so")).string()), quoted(cpp.string()),
                      quoted(out.string()));
  const std::string shell = "/bin/sh";
  const char* argv[] = {shell.c_str(), "-c", line.c_str(), nullptr};
  // Two forks: the middle process exits at once, so the compile is nobody's child here (no
  // zombie) and keeps running after gpurun exits. Only async-signal-safe calls after fork().
  const pid_t middle = ::fork();
  if (middle < 0)
    return false;
  if (middle == 0) {
    ::setsid();
    if (::fork() == 0) {
      ::execv(argv[0], const_cast<char* const*>(argv));
      ::_exit(127);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(middle, &status, 0);
  return true;
}

CompiledKernel::~CompiledKernel() {
  if (m_handle != nullptr)
    ::dlclose(m_handle);
}

bool CompiledKernel::available(std::string* what) {
  const auto& clang = clang_cuda::probe();
  if (what != nullptr)
    *what = clang.available ? fmt::format("clang {}", clang.version) : clang.reason;
  return clang.available;
}

std::shared_ptr<CompiledKernel> CompiledKernel::open(const fs::path& so) {
  void* handle = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    return nullptr;
  const auto* table = static_cast<const native_abi::Kernel*>(::dlsym(handle, "gpurun_native_kernel"));
  if (table == nullptr || table->version != native_abi::kVersion) {
    ::dlclose(handle);
    return nullptr;
  }
  std::shared_ptr<CompiledKernel> kernel(new CompiledKernel());
  kernel->m_handle = handle;
  kernel->m_table = table;
  return kernel;
}

std::shared_ptr<CompiledKernel> CompiledKernel::cached(const std::string& source,
                                                       const fs::path& cache) {
  const fs::path so = cache / "native" / (key_of(source) + ".so");
  std::error_code ec;
  if (!fs::exists(so, ec))
    return nullptr;
  return open(so);
}

std::shared_ptr<CompiledKernel> CompiledKernel::cached_for(const std::string& kernel,
                                                           const fs::path& cache) {
  const fs::path index = kernel.empty() ? fs::path() : index_of(kernel, cache);
  if (index.empty())
    return nullptr;
  const auto key = read_file(index);
  if (!key || key->size() != 32 || key->find_first_not_of("0123456789abcdef") != std::string::npos)
    return nullptr;
  std::error_code ec;
  const fs::path so = cache / "native" / (*key + ".so");
  if (!fs::exists(so, ec))
    return nullptr;
  return open(so);
}

void CompiledKernel::remember(const std::string& kernel, const std::string& source,
                              const fs::path& cache) {
  const fs::path index = kernel.empty() ? fs::path() : index_of(kernel, cache);
  if (index.empty())
    return;
  try {
    write_file_atomic(index, key_of(source));
  } catch (const std::exception&) {
    // An index that cannot be written only means translating again next time.
  }
}

std::shared_ptr<CompiledKernel> CompiledKernel::build(const std::string& source,
                                                      const fs::path& cache) {
  if (auto hit = cached(source, cache))
    return hit;
  const auto& clang = clang_cuda::probe();
  if (!clang.available)
    throw unavailable_error(fmt::format("the compiled engine needs clang: {}", clang.reason));
  const auto started = std::chrono::steady_clock::now();
  const fs::path dir = cache / "native";
  fs::create_directories(dir);
  const std::string key = key_of(source);
  const fs::path so = dir / (key + ".so");
  // Written beside the result under a name of this process, then renamed: a reader never sees a
  // half-written object, and two processes compiling the same kernel do not collide.
  const std::string stem = fmt::format("{}.{}.tmp", key, ::getpid());
  const fs::path cpp = dir / (stem + ".cpp");
  const fs::path out = dir / (stem + ".so");
  write_file_atomic(cpp, source);
  const proc::Finished done = proc::run(command(cache, cpp, out));
  std::error_code ec;
  // GPURUN_NATIVE_SOURCE=DIR keeps the generated C++ there (to read what the engine made).
  if (const char* keep = std::getenv("GPURUN_NATIVE_SOURCE"); keep != nullptr && *keep != '\0')
    fs::copy_file(cpp, fs::path(keep) / (key + ".cpp"), fs::copy_options::overwrite_existing, ec);
  fs::remove(cpp, ec);
  if (!done.started || done.exit_code != 0) {
    fs::remove(out, ec);
    throw CompileError("the compiled engine's C++ did not compile",
                       done.started ? done.output : done.error);
  }
  fs::rename(out, so, ec);
  if (ec)
    throw Error(ExitCode::device, fmt::format("cannot keep {}: {}", so.string(), ec.message()));
  auto kernel = open(so);
  if (!kernel)
    throw Error(ExitCode::device,
                fmt::format("cannot open the compiled kernel {}: {}", so.string(), ::dlerror()));
  kernel->m_compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return kernel;
}

} // namespace gpurun::native
