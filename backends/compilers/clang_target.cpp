#include "backends/compilers/clang_target.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string_view>

#include "backends/kit/cuda_arch.hpp"
#include "base/error.hpp"

namespace gpurun::clang_cuda {
namespace {

struct Arch {
  int number; ///< 86 = sm_86
  int ptx;    ///< the PTX ISA it needs (71 = 7.1)
  int since;  ///< the first clang major that accepts it
};

// From the PTX ISA's target table and clang's release notes.
constexpr Arch archs[] = {
    {50, 40, 14}, {52, 41, 14}, {53, 42, 14},  {60, 50, 14},  {61, 50, 14},  {62, 50, 14},
    {70, 60, 14}, {72, 61, 14}, {75, 63, 14},  {80, 70, 14},  {86, 71, 14},  {87, 74, 16},
    {89, 78, 16}, {90, 78, 16}, {100, 86, 20}, {101, 86, 20}, {120, 87, 20},
};

// "compute_90" → 90; -1 when malformed. An architecture-specific suffix ("90a") is not accepted:
// clang's PTX for it would not load elsewhere and gpurun's layer uses none of its features.
int parse_number(std::string_view target) {
  const auto arch = arch::parse_cuda_arch(target);
  return arch && arch->suffix == 0 ? arch->number : -1;
}

} // namespace

std::vector<int> supported_archs(int clang_major) {
  std::vector<int> out;
  for (const auto& a : archs)
    if (clang_major >= a.since)
      out.push_back(a.number);
  return out;
}

std::vector<int> arch_candidates(const std::string& target, int clang_major) {
  const std::string_view t(target);
  if (t.starts_with("sm_"))
    throw usage_error(fmt::format(
        "--arch {}: clang compiles CUDA to PTX only; ask for compute_{} (the driver compiles the "
        "PTX for the GPU) or use --compiler nvrtc for a cubin",
        target, t.substr(3)));
  const int requested = t.starts_with("compute_") ? parse_number(t) : -1;
  if (requested < 0)
    throw usage_error(
        fmt::format("--arch '{}': expected compute_XX (PTX), e.g. compute_86", target));
  std::vector<int> out;
  for (int a : supported_archs(clang_major))
    if (a <= requested)
      out.push_back(a);
  if (out.empty())
    throw usage_error(fmt::format("--arch {}: older than every architecture clang {} compiles for "
                                  "(compute_{} and newer)",
                                  target, clang_major, archs[0].number));
  std::reverse(out.begin(), out.end());
  return out;
}

int ptx_isa(int arch) {
  for (const auto& a : archs)
    if (a.number == arch)
      return std::max(a.ptx, 60);
  return 60;
}

} // namespace gpurun::clang_cuda
