#include "backends/kit/cubin_params.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "backends/kit/byte_reader.hpp"

namespace gpurun::kit {
namespace {

using Reader = ByteReader<CubinError>;

constexpr std::string_view k_info_prefix = ".nv.info.";
// .nv.info records: a format byte, an attribute byte and a 16-bit field. EIFMT_SVAL's field is
// the size of the value that follows; in the others (EIFMT_NVAL, _BVAL, _HVAL) it is the value
// itself, so those records are 4 bytes.
constexpr std::uint8_t k_fmt_nval = 1;
constexpr std::uint8_t k_fmt_hval = 3;
constexpr std::uint8_t k_fmt_sval = 4;
constexpr std::uint8_t k_eiattr_param_cbank = 0x0a;
constexpr std::uint8_t k_eiattr_kparam_info = 0x17;
constexpr std::size_t k_kparam_info_size = 12;

// EIATTR_KPARAM_INFO: u32 index, u16 ordinal, u16 offset, u32 flags (size in bits 18–31).
std::vector<CubinParam> kernel_params(const Reader& info) {
  std::map<std::uint16_t, CubinParam> by_ordinal;
  std::size_t cbank_bytes = 0; // the parameters' total size (EIATTR_PARAM_CBANK), when given
  std::uint64_t at = 0;
  while (at < info.size()) {
    const auto format = info.read<std::uint8_t>(at, "attribute format");
    const auto attribute = info.read<std::uint8_t>(at + 1, "attribute");
    if (format < k_fmt_nval || format > k_fmt_sval)
      throw CubinError(fmt::format("attribute format {} at offset {}", format, at));
    if (format <= k_fmt_hval) {
      at += 4;
      continue;
    }
    const auto size = info.read<std::uint16_t>(at + 2, "attribute size");
    const Reader value(info.slice(at + 4, size, "attribute value"));
    if (attribute == k_eiattr_param_cbank && size >= 8) // u32 symbol, u16 offset, u16 size
      cbank_bytes = value.read<std::uint16_t>(6, "parameter bank size");
    if (attribute == k_eiattr_kparam_info) {
      if (size < k_kparam_info_size)
        throw CubinError(fmt::format("parameter record of {} bytes", size));
      const auto ordinal = value.read<std::uint16_t>(4, "parameter ordinal");
      const auto offset = value.read<std::uint16_t>(6, "parameter offset");
      const auto flags = value.read<std::uint32_t>(8, "parameter flags");
      by_ordinal[ordinal] = CubinParam{offset, flags >> 18};
    }
    at += 4 + std::uint64_t{size};
  }
  std::vector<CubinParam> params;
  for (const auto& [ordinal, param] : by_ordinal) {
    if (ordinal != params.size())
      throw CubinError(fmt::format("parameter {} is missing", params.size()));
    if (param.offset + param.size > cbank_bytes && cbank_bytes != 0)
      throw CubinError(fmt::format("parameter {} ends past the {} parameter bytes", ordinal,
                                   cbank_bytes));
    params.push_back(param);
  }
  if (params.empty() && cbank_bytes != 0)
    throw CubinError(fmt::format("{} parameter bytes without parameter records", cbank_bytes));
  return params;
}

} // namespace

std::map<std::string, std::vector<CubinParam>> cubin_params(std::span<const std::byte> image) {
  const Reader elf(image);
  if (image.size() < 4 || std::memcmp(image.data(), "\x7f"
                                                    "ELF",
                                      4) != 0)
    throw CubinError("not an ELF file");
  if (elf.read<std::uint8_t>(4, "ELF class") != 2 || elf.read<std::uint8_t>(5, "ELF data") != 1)
    throw CubinError("not a 64-bit little-endian ELF file");
  const auto shoff = elf.read<std::uint64_t>(0x28, "section header offset");
  const auto shentsize = elf.read<std::uint16_t>(0x3a, "section header size");
  const auto shnum = elf.read<std::uint16_t>(0x3c, "section count");
  const auto shstrndx = elf.read<std::uint16_t>(0x3e, "section name table index");
  if (shentsize != 64)
    throw CubinError(fmt::format("section headers of {} bytes (64 expected)", shentsize));
  if (shstrndx >= shnum)
    throw CubinError("no section name table");
  (void)elf.slice(shoff, std::uint64_t{shnum} * shentsize, "the section header table");
  auto header = [&](std::uint64_t i) { return shoff + i * shentsize; };
  const Reader names(elf.slice(elf.read<std::uint64_t>(header(shstrndx) + 24, "section offset"),
                               elf.read<std::uint64_t>(header(shstrndx) + 32, "section size"),
                               "section name table"));
  std::map<std::string, std::vector<CubinParam>> kernels;
  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::string name =
        names.string_at(elf.read<std::uint32_t>(header(i), "section name"), "section name");
    if (!name.starts_with(k_info_prefix) || name.size() == k_info_prefix.size())
      continue;
    const Reader info(elf.slice(elf.read<std::uint64_t>(header(i) + 24, "section offset"),
                                elf.read<std::uint64_t>(header(i) + 32, "section size"),
                                "kernel info section"));
    kernels[name.substr(k_info_prefix.size())] = kernel_params(info);
  }
  return kernels;
}

} // namespace gpurun::kit
