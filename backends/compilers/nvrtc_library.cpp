#include <array>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <sstream>
#include <type_traits>

#include "backends/compilers/nvrtc_api.hpp"
#include "backends/compilers/probe_memo.hpp"

namespace gpurun::nvrtc {
namespace {

// Binds every entry of the table; returns the first missing symbol's name or nullptr.
const char* bind_all(void* h, Api& api) {
  // The static_assert ties each member to the entry point whose symbol it is bound to.
#define GPURUN_NVRTC_BIND(member, fn)                                                              \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  if (!dl::bind(h, api.member, #fn))                                                               \
  return #fn
  GPURUN_NVRTC_BIND(get_error_string, nvrtcGetErrorString);
  GPURUN_NVRTC_BIND(version, nvrtcVersion);
  GPURUN_NVRTC_BIND(create_program, nvrtcCreateProgram);
  GPURUN_NVRTC_BIND(destroy_program, nvrtcDestroyProgram);
  GPURUN_NVRTC_BIND(compile_program, nvrtcCompileProgram);
  GPURUN_NVRTC_BIND(get_ptx_size, nvrtcGetPTXSize);
  GPURUN_NVRTC_BIND(get_ptx, nvrtcGetPTX);
  GPURUN_NVRTC_BIND(get_cubin_size, nvrtcGetCUBINSize);
  GPURUN_NVRTC_BIND(get_cubin, nvrtcGetCUBIN);
  GPURUN_NVRTC_BIND(get_program_log_size, nvrtcGetProgramLogSize);
  GPURUN_NVRTC_BIND(get_program_log, nvrtcGetProgramLog);
  GPURUN_NVRTC_BIND(add_name_expression, nvrtcAddNameExpression);
  GPURUN_NVRTC_BIND(get_lowered_name, nvrtcGetLoweredName);
#undef GPURUN_NVRTC_BIND
  static_assert(
      std::is_same_v<decltype(api.get_num_supported_archs), nvrtcGetNumSupportedArchs_fn>);
  static_assert(std::is_same_v<decltype(api.get_supported_archs), nvrtcGetSupportedArchs_fn>);
  (void)dl::bind(h, api.get_num_supported_archs, "nvrtcGetNumSupportedArchs");
  (void)dl::bind(h, api.get_supported_archs, "nvrtcGetSupportedArchs");
  return nullptr;
}

} // namespace

// NVRTC opens its builtins with dlopen by soname, which the loader finds only where the toolkit
// is on its path (ld.so.conf, LD_LIBRARY_PATH); a library already loaded under that soname is
// used as it is. So the file beside the libnvrtc in use is opened first, RTLD_GLOBAL and for
// good (RTLD_NODELETE, as NVRTC itself opens it).
OpenedBuiltins open_builtins(const std::string& library_file, int major, int minor) {
  namespace fs = std::filesystem;
  const auto name = builtins_file_name(library_file, major, minor);
  std::vector<fs::path> folders;
  if (library_file.find('/') != std::string::npos) {
    folders.push_back(fs::path(library_file).parent_path());
    // A link to a toolkit's library (a wheel-like folder, a venv): its builtins are there.
    std::error_code ec;
    const auto real = fs::canonical(library_file, ec);
    if (!ec && real.parent_path() != folders.front())
      folders.push_back(real.parent_path());
  }
  OpenedBuiltins out;
  std::string failures;
  const auto try_open = [&](const std::string& candidate) {
    dlerror();
    if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) {
      out.handle.reset(handle);
      return true;
    }
    const char* why = dlerror();
    if (candidate.find('/') != std::string::npos)
      failures += fmt::format("; {}", why != nullptr ? why : candidate + ": dlopen failed");
    return false;
  };
  for (const auto& folder : folders) {
    std::error_code ec;
    const auto file = (folder / name).string();
    if (fs::exists(file, ec) && try_open(file)) {
      out.file = file;
      return out;
    }
  }
  if (try_open(name)) {
    const auto file = dl::file_of(out.handle.get());
    out.file = file.empty() ? name : file;
    return out;
  }
  out.error = fmt::format("{} needs {}, which is neither beside it nor on the loader path{}",
                          library_file, name, failures);
  return out;
}

namespace {

std::string not_found_reason(const Search& search, const std::string& failure) {
  if (search.exclusive)
    return fmt::format("GPURUN_NVRTC_LIBRARY: {}", failure);
  const auto places = fmt::format("{}", fmt::join(search.places, ", "));
  // A library that exists but cannot be used says more than the list of places.
  if (!failure.empty())
    return fmt::format("no usable NVRTC: {} (looked in {})", failure, places);
  return fmt::format("NVRTC not found (looked in {}; GPURUN_NVRTC_PATH adds folders)", places);
}

} // namespace

Library load(const Search& search, const LocateEnv& env) {
  std::string failure;  // the first candidate that exists but could not be used
  std::string unusable; // the first that loaded but has no builtins
  for (const auto& candidate : search.candidates) {
    const std::array<std::string, 1> one{candidate};
    auto opened = dl::open_first(one);
    // A bare soname the loader does not know is the normal case on most machines, not news.
    const bool is_file = search.exclusive || candidate.find('/') != std::string::npos;
    if (!opened.handle) {
      if (is_file && failure.empty())
        failure = opened.error;
      continue;
    }
    Library lib;
    if (const char* missing = bind_all(opened.handle.get(), lib.api)) {
      if (failure.empty())
        failure = fmt::format("{} lacks {}: too old", candidate, missing);
      continue;
    }
    if (lib.api.version(&lib.major, &lib.minor) != NVRTC_SUCCESS) {
      if (failure.empty())
        failure = fmt::format("{}: nvrtcVersion failed", candidate);
      continue;
    }
    // A path is what was opened; for a soname, ask the loader which file it found. (Not for a
    // path too: a file already mapped under another name would be reported under that name.)
    std::string file = is_file ? candidate : dl::file_of(opened.handle.get());
    if (file.empty())
      file = candidate;
    auto builtins = open_builtins(file, lib.major, lib.minor);
    if (!builtins.handle) {
      if (failure.empty())
        failure = builtins.error;
      if (unusable.empty())
        unusable = builtins.error;
      continue;
    }
    lib.builtins_handle = std::move(builtins.handle);
    lib.builtins = std::move(builtins.file);
    lib.handle = std::move(opened.handle);
    lib.availability.available = true;
    lib.availability.version = fmt::format("{}.{}", lib.major, lib.minor);
    lib.availability.location = std::move(file);
    lib.include_dirs = toolkit_include_dirs(lib.availability.location, env);
    return lib;
  }
  Library lib;
  lib.availability.reason = not_found_reason(search, failure);
  lib.unusable = std::move(unusable);
  return lib;
}

const Library& library() {
  static const Library lib = [] {
    const auto env = LocateEnv::system();
    return load(locate(env), env);
  }();
  return lib;
}

namespace {

/// The memo's file: named by everything that decides which library load() opens.
std::filesystem::path memo_path(const Search& search) {
  std::string key = search.exclusive ? "exclusive\n" : "search\n";
  bool soname = false;
  for (const auto& c : search.candidates) {
    key += probe_memo::file_identity(c) + "\n";
    soname = soname || c.find('/') == std::string::npos;
  }
  if (soname) { // the loader's own path decides what a bare soname is
    const char* ld = std::getenv("LD_LIBRARY_PATH");
    const std::string dirs = ld != nullptr ? ld : "";
    key += "LD_LIBRARY_PATH=" + dirs + "\n";
    key += probe_memo::file_identity("/etc/ld.so.cache") + "\n";
    for (std::size_t at = 0; at <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', at), dirs.size());
      if (end > at)
        key += probe_memo::file_identity(dirs.substr(at, end - at)) + "\n";
      at = end + 1;
    }
  }
  return probe_memo::path_for("nvrtc", key);
}

std::optional<Probed> read_memo(const std::filesystem::path& path) {
  const auto text = probe_memo::read(path);
  if (!text)
    return std::nullopt;
  std::istringstream in(*text);
  Probed p;
  if (!std::getline(in, p.availability.version) || !std::getline(in, p.availability.location) ||
      !std::getline(in, p.builtins) || p.availability.version.empty() ||
      probe_memo::file_identity(p.availability.location).ends_with(" -"))
    return std::nullopt;
  p.availability.available = true;
  return p;
}

} // namespace

Probed probe_with_memo(const Search& search, const std::function<const Library&()>& load_now) {
  const auto memo = memo_path(search);
  if (auto kept = read_memo(memo))
    return *kept;
  const Library& lib = load_now();
  Probed p{lib.availability, lib.builtins};
  if (p.availability.available) // a failed load is not kept: the next run looks again
    probe_memo::keep(memo, fmt::format("{}\n{}\n{}\n", p.availability.version,
                                       p.availability.location, p.builtins));
  return p;
}

const Probed& probed() {
  static const Probed found = probe_with_memo(locate(LocateEnv::system()), library);
  return found;
}

const Availability& probe() {
  return probed().availability;
}

std::string result_name(nvrtcResult result) {
  const auto& lib = library();
  if (lib.api.get_error_string != nullptr)
    if (const char* text = lib.api.get_error_string(result))
      return text;
  return fmt::format("nvrtcResult {}", static_cast<int>(result));
}

} // namespace gpurun::nvrtc
