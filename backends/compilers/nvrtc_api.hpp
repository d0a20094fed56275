#pragma once
// The NVRTC function table, filled by dlsym from the first libnvrtc that loads. Types come from
// nvrtc_types.hpp, gpurun's own declarations of the NVRTC API, so no toolkit is needed to build.
#include <functional>
#include <string>
#include <vector>

#include "backends/compilers/nvrtc.hpp"
#include "backends/compilers/nvrtc_locate.hpp"
#include "backends/compilers/nvrtc_types.hpp"

#include "backends/kit/dynamic_library.hpp"

namespace gpurun::nvrtc {

struct Api {
  nvrtcGetErrorString_fn get_error_string = nullptr;
  nvrtcVersion_fn version = nullptr;
  nvrtcCreateProgram_fn create_program = nullptr;
  nvrtcDestroyProgram_fn destroy_program = nullptr;
  nvrtcCompileProgram_fn compile_program = nullptr;
  nvrtcGetPTXSize_fn get_ptx_size = nullptr;
  nvrtcGetPTX_fn get_ptx = nullptr;
  nvrtcGetCUBINSize_fn get_cubin_size = nullptr;
  nvrtcGetCUBIN_fn get_cubin = nullptr;
  nvrtcGetProgramLogSize_fn get_program_log_size = nullptr;
  nvrtcGetProgramLog_fn get_program_log = nullptr;
  nvrtcAddNameExpression_fn add_name_expression = nullptr;
  nvrtcGetLoweredName_fn get_lowered_name = nullptr;
  // Optional (NVRTC 11.2+): which --gpu-architecture values this NVRTC accepts.
  nvrtcGetNumSupportedArchs_fn get_num_supported_archs = nullptr;
  nvrtcGetSupportedArchs_fn get_supported_archs = nullptr;
};

/// The loaded library: stays mapped for the life of the process.
struct Library {
  dl::LibraryHandle handle;
  Api api;
  /// `location` is the file that was loaded, as the loader found it.
  Availability availability;
  int major = 0;
  int minor = 0;
  /// libnvrtc-builtins, which NVRTC dlopens by its soname on the first compile: opened here first,
  /// from beside the library (RTLD_GLOBAL), so that NVRTC finds it already loaded where the
  /// loader path does not lead to the toolkit. `builtins` is the file.
  dl::LibraryHandle builtins_handle;
  std::string builtins;
  /// Why a libnvrtc that loaded cannot compile (its builtins are missing); set only when no
  /// candidate is usable and one failed that way.
  std::string unusable;
  /// The toolkit headers that go with this NVRTC (toolkit_include_dirs), searched by compiles
  /// after the user's folders.
  std::vector<std::string> include_dirs;
};

/// Loads NVRTC on first use (thread-safe) from the candidates of locate(LocateEnv::system());
/// `availability.available` says whether `api` is usable.
[[nodiscard]] const Library& library();

/// What a load of NVRTC found, without loading it when an earlier run already did from the same
/// files (kept in the cache folder, named by the candidates' paths, inodes, sizes and modification
/// times, the loader's cache and LD_LIBRARY_PATH): a compile-cache hit then never opens the
/// library, which takes about 35 ms. library() loads for real.
struct Probed {
  Availability availability;
  std::string builtins;
};
[[nodiscard]] const Probed& probed();
/// probed()'s work for `search`, calling `load_now` on a miss; exposed for tests.
[[nodiscard]] Probed probe_with_memo(const Search& search,
                                     const std::function<const Library&()>& load_now);

/// Tries `search.candidates` in order and keeps the first that loads, has every required entry
/// point and whose builtins library can be opened (beside it, beside the file it links to, or
/// on the loader path). Exposed for tests; library() is what the rest of gpurun uses.
[[nodiscard]] Library load(const Search& search, const LocateEnv& env);

/// The builtins library of the NVRTC at `library_file` (version `major`.`minor`), opened
/// RTLD_GLOBAL from beside it, else from beside the file it links to, else by soname through the
/// loader path. An empty handle and, in `error`, what was looked for when none opens. Used by
/// load(); exposed for tests.
struct OpenedBuiltins {
  dl::LibraryHandle handle;
  std::string file;  ///< what was opened
  std::string error; ///< why nothing was
};
[[nodiscard]] OpenedBuiltins open_builtins(const std::string& library_file, int major, int minor);

/// "NVRTC_ERROR_COMPILATION" from the library (or the number when it cannot say).
[[nodiscard]] std::string result_name(nvrtcResult result);

} // namespace gpurun::nvrtc
