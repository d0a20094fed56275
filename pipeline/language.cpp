#include "pipeline/language.hpp"

#include <algorithm>
#include <cctype>
#include <span>
#include <string>

#include <fmt/format.h>

#include "backends/kit/module_image.hpp"
#include "base/error.hpp"
#include "base/read_file.hpp"

namespace gpurun {

namespace {

bool is_fatbin(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".fatbin";
}

/// A fat binary (nvcc -fatbin, a module an application loaded) runs through its PTX: that of the
/// highest architecture it carries, decompressed.
std::string fatbin_ptx_text(const std::filesystem::path& file, const std::string& image) {
  try {
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(image.data()),
                                           image.size());
    if (kit::image_kind(bytes) != kit::ImageKind::fatbin)
      throw kit::ImageError("not a fat binary (its magic is not 0xBA55ED50)");
    if (auto ptx = kit::fatbin_ptx(bytes))
      return std::move(*ptx);
    throw kit::ImageError("it holds no PTX, only machine code (compile with "
                          "-gencode arch=compute_XX,code=compute_XX to keep the PTX)");
  } catch (const kit::ImageError& e) {
    throw usage_error(fmt::format("{}: {}", file.string(), e.what()));
  }
}

} // namespace

KernelSource load_kernel_source(const std::filesystem::path& file) {
  const Language language = detect_language(file);
  std::string why;
  auto text = read_file(file, &why);
  if (!text)
    throw usage_error(fmt::format("{}: cannot read the kernel file: {}", file.string(), why));
  if (is_fatbin(file))
    return KernelSource{fatbin_ptx_text(file, *text), file, language};
  // A compiler would stop reading at the first NUL and find no kernel; say what is wrong instead.
  if (const auto nul = text->find('\0'); nul != std::string::npos)
    throw usage_error(
        fmt::format("{}: not a text file (a NUL byte at offset {})", file.string(), nul));
  return KernelSource{std::move(*text), file, language};
}

Language detect_language(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  // Extensions are matched case-insensitively: "KERNEL.CU" is still CUDA on case-folding systems.
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".cu" || ext == ".cuh")
    return Language::cuda;
  if (ext == ".hip")
    return Language::hip;
  if (ext == ".cl")
    return Language::opencl;
  if (ext == ".metal")
    return Language::metal;
  if (ext == ".ptx" || ext == ".fatbin")
    return Language::ptx;
  throw usage_error("cannot tell the kernel language of '" + file.string() +
                    "': expected .cu, .cuh, .hip, .cl, .metal, .ptx or .fatbin");
}

std::string_view language_name(Language language) {
  switch (language) {
  case Language::cuda:
    return "cuda";
  case Language::hip:
    return "hip";
  case Language::opencl:
    return "opencl";
  case Language::metal:
    return "metal";
  case Language::ptx:
    return "ptx";
  }
  return "unknown";
}

} // namespace gpurun
