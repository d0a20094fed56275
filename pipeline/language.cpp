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

std::string lower_extension(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

/// A module image (nvcc -fatbin or -cubin, a module an application loaded): kept as it is for the
/// CUDA backend, with the PTX a fat binary carries (that of its highest architecture,
/// decompressed) as the text the CPU backend runs and the signatures come from.
KernelSource image_source(const std::filesystem::path& file, const std::string& contents) {
  KernelSource source{{}, file, Language::ptx};
  const auto* data = reinterpret_cast<const std::byte*>(contents.data());
  source.image.assign(data, data + contents.size());
  const kit::ImageKind kind = kit::image_kind(source.image);
  try {
    if (kind == kit::ImageKind::cubin) {
      source.image_format = "cubin";
    } else if (kind == kit::ImageKind::fatbin) {
      source.image_format = "fatbin";
      if (auto ptx = kit::fatbin_ptx(source.image))
        source.text = std::move(*ptx);
    } else {
      throw kit::ImageError(lower_extension(file) == ".cubin"
                                ? "not a cubin (no ELF header)"
                                : "not a fat binary (its magic is not 0xBA55ED50)");
    }
  } catch (const kit::ImageError& e) {
    throw usage_error(fmt::format("{}: {}", file.string(), e.what()));
  }
  return source;
}

} // namespace

KernelSource load_kernel_source(const std::filesystem::path& file) {
  const Language language = detect_language(file);
  std::string why;
  auto text = read_file(file, &why);
  if (!text)
    throw usage_error(fmt::format("{}: cannot read the kernel file: {}", file.string(), why));
  if (const std::string ext = lower_extension(file); ext == ".fatbin" || ext == ".cubin")
    return image_source(file, *text);
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
  if (ext == ".ptx" || ext == ".fatbin" || ext == ".cubin")
    return Language::ptx;
  throw usage_error("cannot tell the kernel language of '" + file.string() +
                    "': expected .cu, .cuh, .hip, .cl, .metal, .ptx, .fatbin or .cubin");
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
