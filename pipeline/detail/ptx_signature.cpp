// find_ptx_kernels (declared in pipeline/signature.hpp): PTX has no C types, so a kernel's
// signature is its `.entry` parameter list, read by the PTX entry parser that the backends use as
// well.
#include <map>

#include <fmt/format.h>

#include "backends/kit/cubin_params.hpp"
#include "backends/kit/module_image.hpp"
#include "backends/kit/ptx_entries.hpp"
#include "base/error.hpp"
#include "pipeline/signature.hpp"

namespace gpurun {
namespace {

std::optional<DType> element_of(std::string_view type) {
  static constexpr std::pair<std::string_view, DType> k_types[] = {
      {"u8", DType::u8},   {"s8", DType::i8},   {"b8", DType::u8},   {"u16", DType::u16},
      {"s16", DType::i16}, {"b16", DType::u16}, {"f16", DType::f16}, {"bf16", DType::bf16},
      {"u32", DType::u32}, {"s32", DType::i32}, {"b32", DType::u32}, {"f32", DType::f32},
      {"u64", DType::u64}, {"s64", DType::i64}, {"b64", DType::u64}, {"f64", DType::f64},
  };
  for (const auto& [name, dtype] : k_types) {
    if (name == type)
      return dtype;
  }
  return std::nullopt;
}

KernelParam kernel_param(const kit::PtxParam& p) {
  KernelParam out;
  out.name = p.name;
  ParamType& t = out.type;
  t.c_type = fmt::format(".{}{}{}", p.vector_width > 1 ? fmt::format("v{}.", p.vector_width) : "",
                         p.type, p.array_size ? fmt::format("[{}]", *p.array_size) : "");
  t.scalar_size = p.size;
  if (p.array_size.value_or(1) != 1 || p.vector_width != 1)
    return out; // an aggregate passed by value (.b8 name[16]): no element type to check
  if (p.is_ptr) {
    t.is_pointer = true;
    t.scalar_size = 0; // the pointee's type is not in the PTX, so any buffer will do
    return out;
  }
  t.element = element_of(p.type);
  t.pointer_or_integer = p.is_pointer_sized_integer();
  return out;
}

/// A parameter a cubin lays out: its size, nothing of its type. Eight bytes may be a pointer or
/// an integer (a buffer, &NAME, a 64-bit scalar); anything else takes a value of its size.
KernelParam cubin_param(std::size_t index, const kit::CubinParam& p) {
  KernelParam out;
  out.name = fmt::format("p{}", index);
  out.type.c_type = fmt::format(".b8[{}]", p.size);
  out.type.scalar_size = p.size;
  if (p.size == 8) {
    out.type.c_type = ".b64";
    out.type.element = DType::u64;
    out.type.pointer_or_integer = true;
  }
  return out;
}

} // namespace

std::vector<KernelSignature> find_image_kernels(std::span<const std::byte> image,
                                                std::string_view file_name) {
  std::map<std::string, std::vector<kit::CubinParam>> kernels;
  try {
    if (kit::image_kind(image) == kit::ImageKind::fatbin) {
      for (const auto& entry : kit::fatbin_entries(image))
        if (entry.kind == kit::FatbinEntry::Kind::elf) {
          kernels = kit::cubin_params(kit::fatbin_payload(entry));
          break;
        }
    } else {
      kernels = kit::cubin_params(image);
    }
  } catch (const std::exception& e) {
    throw usage_error(fmt::format("{}: {}", file_name, e.what()));
  }
  std::vector<KernelSignature> out;
  for (const auto& [name, params] : kernels) {
    KernelSignature sig;
    sig.name = name;
    sig.extern_c = true;
    sig.from_ptx = true;
    for (std::size_t i = 0; i < params.size(); ++i)
      sig.params.push_back(cubin_param(i, params[i]));
    out.push_back(std::move(sig));
  }
  return out;
}

std::vector<KernelSignature> find_module_kernels(const KernelSource& source) {
  if (source.text.empty() && !source.image.empty())
    return find_image_kernels(source.image, source.path.string());
  return find_ptx_kernels(source.text, source.path.string());
}

std::vector<KernelSignature> find_ptx_kernels(std::string_view ptx, std::string_view file_name) {
  std::vector<kit::PtxEntry> entries;
  try {
    entries = kit::parse_ptx_entries(ptx);
  } catch (const kit::PtxSyntaxError& e) {
    throw Error(ExitCode::compile, fmt::format("{}:{}: {}", file_name, e.line(), e.what()));
  }
  std::vector<KernelSignature> out;
  out.reserve(entries.size());
  for (const auto& entry : entries) {
    KernelSignature sig;
    sig.name = entry.name;
    sig.line = entry.line;
    sig.extern_c = true; // PTX names are already the symbols
    sig.from_ptx = true;
    for (const auto& p : entry.params)
      sig.params.push_back(kernel_param(p));
    out.push_back(std::move(sig));
  }
  return out;
}

} // namespace gpurun
