#include "backends/compilers/device_headers.hpp"

namespace gpurun::compilers {
namespace {

constexpr HeaderFile std_files[] = {
#include "std_headers.inc"
};

constexpr HeaderFile hip_files[] = {
#include "hip_headers.inc"
};

constexpr HeaderFile clang_files[] = {
#include "clang_headers.inc"
};

} // namespace

std::span<const HeaderFile> std_headers() {
  return std_files;
}

std::span<const HeaderFile> hip_layer_headers() {
  return hip_files;
}

std::span<const HeaderFile> clang_layer_headers() {
  return clang_files;
}

} // namespace gpurun::compilers
