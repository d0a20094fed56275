#pragma once
// Where NVRTC may be installed on a user's machine, as an ordered list of files to dlopen, and
// where the toolkit headers that go with the NVRTC that was loaded are. Both are pure functions of
// the environment they are given (variables, a file-system root, a folder-listing hook), so the
// search order is testable on a fake tree without real libraries.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::nvrtc {

/// What discovery reads from the machine.
struct LocateEnv {
  /// An environment variable's value; empty when unset.
  std::function<std::string(const std::string& name)> variable;
  /// The names of the entries of a folder (files, links and folders alike); empty when the folder
  /// does not exist or cannot be read.
  std::function<std::vector<std::string>(const std::string& folder)> list;
  /// Prefixed to the fixed system folders (/usr/local/cuda…, /usr/local/lib/python3…,
  /// /usr/lib/python3/dist-packages); "" on the real machine. Folders that come from variables
  /// ($CUDA_HOME, $HOME, …) are taken as they are.
  std::string root;

  /// The process's environment and file system.
  [[nodiscard]] static LocateEnv system();
};

/// The candidates to dlopen, best first, and the places that were looked at.
struct Search {
  /// Absolute paths of files that exist, and bare sonames ("libnvrtc.so.13") that the dynamic
  /// loader looks up in its own path (LD_LIBRARY_PATH, ld.so.cache).
  std::vector<std::string> candidates;
  /// Short names of the places searched, for the one-line "not found" reason: "$CUDA_HOME", "the
  /// loader path", "/usr/local/cuda*", "Python site-packages", …
  std::vector<std::string> places;
  /// True when $GPURUN_NVRTC_LIBRARY named the one file to try.
  bool exclusive = false;
};

/// A toolkit library searched for as NVRTC is: NVRTC itself, or CUPTI (the profiling library,
/// which the toolkit also keeps in extras/CUPTI/lib64).
struct ToolkitLibrary {
  std::string_view variable;  ///< "GPURUN_NVRTC": $…_LIBRARY names the one file, $…_PATH folders
  std::string_view base_name; ///< "libnvrtc.so"
  std::vector<std::string_view> loader_names;    ///< sonames, best first
  std::vector<std::string_view> wheel_folders;   ///< under site-packages ("nvidia/cu13/lib")
  std::vector<std::string_view> toolkit_folders; ///< under a toolkit root, besides lib64, lib
                                                 ///< and targets/<arch>-linux/lib
};

/// NVRTC: libnvrtc.so.13, .so.12, .so.11.2, .so; the nvidia/cu13 and nvidia/cuda_nvrtc wheels.
[[nodiscard]] const ToolkitLibrary& nvrtc_library();

/// Every place NVRTC is installed by the usual means, in this order:
///  1. $GPURUN_NVRTC_LIBRARY, an exact file: when set, the only candidate;
///  2. $GPURUN_NVRTC_PATH, colon-separated folders: each as a library folder, a toolkit root
///     (lib64, lib, targets/<arch>-linux/lib) and a Python site-packages folder (wheel layouts);
///  3. $CUDA_HOME, then $CUDA_PATH, as toolkit roots;
///  4. $CONDA_PREFIX/lib;
///  5. the loader path: libnvrtc.so.13, .so.12, .so.11.2, .so by soname (Debian's libnvrtc11.2
///     installs /usr/lib/x86_64-linux-gnu/libnvrtc.so.11.2);
///  6. /usr/local/cuda, then /usr/local/cuda-X.Y, newest version first;
///  7. Python wheels (nvidia/cu13/lib for CUDA 13, nvidia/cuda_nvrtc/lib for CUDA 11 and 12) in
///     $VIRTUAL_ENV, ~/.local, /usr/local/lib (dist- and site-packages), /usr/lib/python3 and
///     $CONDA_PREFIX site-packages, newest Python first.
/// Within a folder, the libnvrtc.so.N[.M…] files it has, newest first, then libnvrtc.so.
[[nodiscard]] Search locate(const LocateEnv& env);
/// The same search for another toolkit library (`library`'s variables, names and folders).
[[nodiscard]] Search locate(const LocateEnv& env, const ToolkitLibrary& library);

/// The NVRTC libraries among a folder's entry names, best first: the highest major version first,
/// within a major the shortest name (the soname link) first, libnvrtc.so last.
[[nodiscard]] std::vector<std::string> nvrtc_file_names(const std::vector<std::string>& entries);
/// The same for the library called `base_name` ("libcupti.so").
[[nodiscard]] std::vector<std::string> library_file_names(const std::vector<std::string>& entries,
                                                          std::string_view base_name);

/// The builtins library that NVRTC at `library_path`, version `major`.`minor`, opens by soname on
/// its first compile: "libnvrtc-builtins.so.13.0", or "libnvrtc-builtins.alt.so.13.0" for
/// libnvrtc.alt.so (CUDA 13's variant with its own builtins).
[[nodiscard]] std::string builtins_file_name(const std::string& library_path, int major, int minor);

/// The toolkits NVIDIA's packages install: /usr/local/cuda, then /usr/local/cuda-X.Y, newest
/// version first (under env.root).
[[nodiscard]] std::vector<std::string> usr_local_toolkits(const LocateEnv& env);

/// The folders with the toolkit headers that NVRTC compiles should see (cuda_fp16.h,
/// cooperative_groups.h, cuda/std/… under cccl/), for the NVRTC library at `library_path`:
/// `<root>/include` and `<root>/include/cccl` of the toolkit whose lib folder holds it; for a
/// Python wheel (site-packages/nvidia/<package>/lib) the include folders of the nvidia/*
/// packages, its own first; then $CUDA_HOME/include and $CUDA_PATH/include. Only folders that
/// exist are returned, and outside a wheel only those that hold cuda_runtime.h.
[[nodiscard]] std::vector<std::string> toolkit_include_dirs(const std::string& library_path,
                                                            const LocateEnv& env);

} // namespace gpurun::nvrtc
