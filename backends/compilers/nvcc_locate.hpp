#pragma once
// Finding a CUDA toolkit's nvcc on this machine, once per process. Where to look is a pure
// function of the environment (nvrtc::LocateEnv: variables, a file-system root, folder listings),
// so the order is testable on a fake tree.
#include <optional>
#include <string>
#include <vector>

#include "backends/compilers/availability.hpp"
#include "backends/compilers/nvrtc_locate.hpp"

namespace gpurun::nvcc {

using LocateEnv = nvrtc::LocateEnv;

/// The programs to try, best first, and the places they came from.
struct Search {
  /// Paths of nvcc files that exist, then the bare name "nvcc" (looked up on PATH).
  std::vector<std::string> candidates;
  /// Short names of the places searched, for the "not found" reason.
  std::vector<std::string> places;
  /// True when $GPURUN_NVCC named the one program to try.
  bool exclusive = false;
};

/// Where nvcc is installed by the usual means, in this order:
///  1. $GPURUN_NVCC, a program: when set, the only candidate;
///  2. $CUDA_HOME/bin/nvcc, then $CUDA_PATH/bin/nvcc;
///  3. /usr/local/cuda/bin/nvcc, then /usr/local/cuda-X.Y/bin/nvcc, newest version first;
///  4. nvcc on PATH.
[[nodiscard]] Search locate_nvcc(const LocateEnv& env);

/// What probing found: version "13.0.88", location "/usr/local/cuda-13.0/bin/nvcc".
struct Installation {
  compilers::Availability availability;
};

/// Probes once (thread-safe): the first candidate of locate_nvcc(LocateEnv::system()) whose
/// `--version` says it is nvcc.
[[nodiscard]] const Installation& installation();

/// Probes now: what installation() runs once.
[[nodiscard]] Installation probe_installation(const Search& search);

/// The version in `nvcc --version` output ("Cuda compilation tools, release 13.0, V13.0.88" →
/// "13.0.88"; "release 11.2" without the V… part → "11.2").
[[nodiscard]] std::optional<std::string> parse_nvcc_version(const std::string& version_output);

} // namespace gpurun::nvcc
