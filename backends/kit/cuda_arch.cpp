#include "backends/kit/cuda_arch.hpp"

#include <fmt/format.h>

namespace gpurun::arch {

namespace {

constexpr std::string_view real_prefix = "sm_";
constexpr std::string_view virtual_prefix = "compute_";

} // namespace

std::optional<CudaArch> parse_cuda_arch(std::string_view text) {
  CudaArch arch;
  if (text.starts_with(real_prefix)) {
    text.remove_prefix(real_prefix.size());
  } else if (text.starts_with(virtual_prefix)) {
    text.remove_prefix(virtual_prefix.size());
    arch.real = false;
  } else {
    return std::nullopt;
  }
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  // Two or three digits (sm_90, sm_100), then at most one feature letter.
  if (digits < 2 || digits > 3 || text.size() - digits > 1)
    return std::nullopt;
  if (text.size() > digits) {
    arch.suffix = text[digits];
    if (arch.suffix < 'a' || arch.suffix > 'z')
      return std::nullopt;
  }
  for (std::size_t i = 0; i < digits; ++i)
    arch.number = arch.number * 10 + (text[i] - '0');
  return arch;
}

std::string to_string(const CudaArch& arch) {
  std::string text = fmt::format("{}{}", arch.real ? real_prefix : virtual_prefix, arch.number);
  if (arch.suffix != 0)
    text += arch.suffix;
  return text;
}

std::string real_arch(int major, int minor) {
  return fmt::format("{}{}{}", real_prefix, major, minor);
}

std::string virtual_arch(int major, int minor) {
  return fmt::format("{}{}{}", virtual_prefix, major, minor);
}

std::string virtual_arch(std::string_view text) {
  auto arch = parse_cuda_arch(text);
  if (!arch)
    return std::string(text);
  arch->real = false;
  return to_string(*arch);
}

std::string real_arch(std::string_view text) {
  auto arch = parse_cuda_arch(text);
  if (!arch)
    return std::string(text);
  arch->real = true;
  return to_string(*arch);
}

} // namespace gpurun::arch
