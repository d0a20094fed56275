#pragma once
// Kernel parameter layouts read from a cubin (an NVIDIA ELF): each kernel's `.nv.info.<name>`
// section lists its parameters (EIATTR_KPARAM_INFO: ordinal, offset, size), which is how the CUDA
// backend lays out launch arguments for a module loaded without PTX, without asking the driver
// past the last parameter.
#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurun::kit {

struct CubinParam {
  std::size_t offset = 0;
  std::size_t size = 0;
};

class CubinError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Every kernel of the cubin with its parameters in order (a kernel without parameters maps to
/// an empty list). Throws CubinError when the image is not a 64-bit little-endian ELF or its
/// tables lie outside it.
[[nodiscard]] std::map<std::string, std::vector<CubinParam>>
cubin_params(std::span<const std::byte> image);

} // namespace gpurun::kit
