#include "backends/kit/module_image.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#include <fmt/format.h>
#include <zstd.h>

#include "backends/kit/byte_reader.hpp"

namespace gpurun::kit {
namespace {

using Reader = ByteReader<ImageError>;

constexpr std::uint32_t k_fatbin_magic = 0xBA55ED50;
constexpr std::uint32_t k_wrapper_magic = 0x466243B1;
constexpr std::uint32_t k_zstd_magic = 0xFD2FB528;
// Entry flags: the payload is compressed (0x2000: the older LZ scheme, 0x8000: zstd).
constexpr std::uint64_t k_flag_compressed_lz = 0x2000;
constexpr std::uint64_t k_flag_compressed_zstd = 0x8000;
constexpr std::uint64_t k_max_payload = std::uint64_t{1} << 32;
constexpr std::uint32_t k_sht_nobits = 8;

bool is_text_byte(std::byte b) {
  const auto c = static_cast<unsigned char>(b);
  return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0x7f);
}

std::uint64_t end_of(std::uint64_t offset, std::uint64_t size, const char* what) {
  std::uint64_t end = 0;
  if (__builtin_add_overflow(offset, size, &end))
    throw ImageError(fmt::format("{} ends beyond 2^64", what));
  return end;
}

std::uint64_t elf_size(const Reader& r) {
  if (r.read<std::uint8_t>(4, "ELF class") != 2 || r.read<std::uint8_t>(5, "ELF data") != 1)
    throw ImageError("not a 64-bit little-endian ELF image");
  const auto phoff = r.read<std::uint64_t>(32, "e_phoff");
  const auto shoff = r.read<std::uint64_t>(40, "e_shoff");
  const auto phentsize = r.read<std::uint16_t>(54, "e_phentsize");
  const auto phnum = r.read<std::uint16_t>(56, "e_phnum");
  const auto shentsize = r.read<std::uint16_t>(58, "e_shentsize");
  const auto shnum = r.read<std::uint16_t>(60, "e_shnum");
  std::uint64_t end = 64;
  if (shnum > 0) {
    if (shentsize < 64)
      throw ImageError(fmt::format("section header entries of {} bytes", shentsize));
    end = std::max(end, end_of(shoff, std::uint64_t{shnum} * shentsize, "the section headers"));
    for (std::uint64_t i = 0; i < shnum; ++i) {
      const std::uint64_t at = shoff + i * shentsize;
      if (r.read<std::uint32_t>(at + 4, "sh_type") == k_sht_nobits)
        continue;
      end = std::max(end, end_of(r.read<std::uint64_t>(at + 24, "sh_offset"),
                                 r.read<std::uint64_t>(at + 32, "sh_size"), "a section"));
    }
  }
  if (phnum > 0) {
    if (phentsize < 56)
      throw ImageError(fmt::format("program header entries of {} bytes", phentsize));
    end = std::max(end, end_of(phoff, std::uint64_t{phnum} * phentsize, "the program headers"));
    for (std::uint64_t i = 0; i < phnum; ++i) {
      const std::uint64_t at = phoff + i * phentsize;
      end = std::max(end, end_of(r.read<std::uint64_t>(at + 8, "p_offset"),
                                 r.read<std::uint64_t>(at + 32, "p_filesz"), "a segment"));
    }
  }
  if (end > r.size())
    throw ImageError(
        fmt::format("the ELF image's tables reach byte {}, past the {} there are", end, r.size()));
  return end;
}

std::uint64_t fatbin_size(const Reader& r) {
  const auto header = r.read<std::uint16_t>(6, "fatbin header size");
  const auto body = r.read<std::uint64_t>(8, "fatbin size");
  const std::uint64_t end = end_of(header, body, "the fatbin");
  if (header < 16 || end > r.size())
    throw ImageError(fmt::format("a fatbin of {} bytes, past the {} there are", end, r.size()));
  return end;
}

std::string_view kind_name(FatbinEntry::Kind kind) {
  return kind == FatbinEntry::Kind::ptx ? "PTX" : kind == FatbinEntry::Kind::elf ? "ELF" : "other";
}

} // namespace

std::string_view to_string(ImageKind kind) {
  switch (kind) {
  case ImageKind::ptx:
    return "ptx";
  case ImageKind::cubin:
    return "cubin";
  case ImageKind::fatbin:
    return "fatbin";
  case ImageKind::fatbin_wrapper:
    return "fatbin wrapper";
  case ImageKind::unknown:
    break;
  }
  return "unknown";
}

ImageKind image_kind(std::span<const std::byte> head) {
  if (head.size() >= 4) {
    std::uint32_t magic = 0;
    std::memcpy(&magic, head.data(), 4);
    if (magic == k_fatbin_magic)
      return ImageKind::fatbin;
    if (magic == k_wrapper_magic)
      return ImageKind::fatbin_wrapper;
    if (std::memcmp(head.data(),
                    "\x7f"
                    "ELF",
                    4) == 0)
      return ImageKind::cubin;
  }
  // PTX: text that opens with a comment, a directive or blanks.
  std::size_t n = 0;
  while (n < head.size() && head[n] != std::byte{0} && is_text_byte(head[n]))
    ++n;
  if (n == 0 || (n < head.size() && head[n] != std::byte{0}))
    return ImageKind::unknown;
  const auto first = static_cast<char>(head[0]);
  return first == '/' || first == '.' || first == ' ' || first == '\t' || first == '\n' ||
                 first == '\r'
             ? ImageKind::ptx
             : ImageKind::unknown;
}

std::uint64_t image_size(std::span<const std::byte> bytes) {
  const Reader r(bytes);
  switch (image_kind(bytes.first(std::min<std::size_t>(bytes.size(), 16)))) {
  case ImageKind::cubin:
    return elf_size(r);
  case ImageKind::fatbin:
    return fatbin_size(r);
  case ImageKind::ptx: {
    const void* nul = std::memchr(bytes.data(), 0, bytes.size());
    if (nul == nullptr)
      throw ImageError(
          fmt::format("PTX text without its terminating NUL in {} bytes", bytes.size()));
    return static_cast<std::uint64_t>(static_cast<const std::byte*>(nul) - bytes.data());
  }
  case ImageKind::fatbin_wrapper:
    throw ImageError("a fatbin wrapper, not an image: the image is where it points");
  case ImageKind::unknown:
    break;
  }
  throw ImageError("not a PTX, cubin or fatbin image");
}

std::vector<FatbinEntry> fatbin_entries(std::span<const std::byte> image) {
  const Reader r(image);
  if (r.read<std::uint32_t>(0, "fatbin magic") != k_fatbin_magic)
    throw ImageError("not a fatbin (its magic is not 0xBA55ED50)");
  const std::uint64_t end = fatbin_size(r);
  std::vector<FatbinEntry> entries;
  std::uint64_t at = r.read<std::uint16_t>(6, "fatbin header size");
  while (at < end) {
    const auto kind = r.read<std::uint16_t>(at, "entry kind");
    const auto header = r.read<std::uint32_t>(at + 4, "entry header size");
    const auto stored = r.read<std::uint64_t>(at + 8, "entry payload size");
    if (header < 48 || header > end - at)
      throw ImageError(fmt::format("fatbin entry at offset {}: a header of {} bytes", at, header));
    const std::uint64_t payload = at + header;
    if (end_of(payload, stored, "a fatbin entry") > end)
      throw ImageError(
          fmt::format("fatbin entry at offset {}: {} payload bytes past the end", at, stored));
    FatbinEntry e;
    e.kind = kind == 1   ? FatbinEntry::Kind::ptx
             : kind == 2 ? FatbinEntry::Kind::elf
                         : FatbinEntry::Kind::other;
    e.arch = r.read<std::uint32_t>(at + 28, "entry architecture");
    const auto flags = r.read<std::uint64_t>(at + 40, "entry flags");
    e.compressed = (flags & (k_flag_compressed_lz | k_flag_compressed_zstd)) != 0;
    std::uint64_t size = stored;
    if (e.compressed) {
      const auto compressed = r.read<std::uint32_t>(at + 16, "entry compressed size");
      if (header < 64)
        throw ImageError(
            fmt::format("fatbin entry at offset {}: compressed, without its size", at));
      e.uncompressed_size = r.read<std::uint64_t>(at + 56, "entry uncompressed size");
      if (compressed > stored)
        throw ImageError(fmt::format("fatbin entry at offset {}: {} compressed bytes in {}", at,
                                     compressed, stored));
      size = compressed;
    } else {
      e.uncompressed_size = stored;
    }
    e.stored = r.slice(payload, size, "entry payload");
    entries.push_back(e);
    at = payload + stored;
  }
  return entries;
}

std::vector<std::byte> fatbin_payload(const FatbinEntry& entry) {
  if (!entry.compressed)
    return {entry.stored.begin(), entry.stored.end()};
  std::uint32_t magic = 0;
  if (entry.stored.size() >= 4)
    std::memcpy(&magic, entry.stored.data(), 4);
  if (magic != k_zstd_magic)
    throw ImageError(fmt::format("a compressed {} entry (sm_{}) in a scheme other than zstd, which "
                                 "gpurun does not read",
                                 kind_name(entry.kind), entry.arch));
  if (entry.uncompressed_size > k_max_payload)
    throw ImageError(fmt::format("a {} entry of {} bytes uncompressed", kind_name(entry.kind),
                                 entry.uncompressed_size));
  const auto fail = [&](std::string_view why) {
    return ImageError(fmt::format("the {} entry (sm_{}) does not decompress to its {} bytes{}",
                                  kind_name(entry.kind), entry.arch, entry.uncompressed_size,
                                  why));
  };
  // A frame that states its size must state the entry's; one that does not is read as it comes.
  const unsigned long long stated =
      ZSTD_getFrameContentSize(entry.stored.data(), entry.stored.size());
  if (stated == ZSTD_CONTENTSIZE_ERROR)
    throw fail(": not a zstd frame");
  if (stated != ZSTD_CONTENTSIZE_UNKNOWN && stated != entry.uncompressed_size)
    throw fail(fmt::format(": its frame holds {}", stated));
  // Streamed in steps, so memory follows what the data expands to, never what a header claims.
  const std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> stream(ZSTD_createDStream(),
                                                                          &ZSTD_freeDStream);
  if (!stream)
    throw ImageError("out of memory for a zstd stream");
  std::vector<std::byte> out;
  ZSTD_inBuffer in{entry.stored.data(), entry.stored.size(), 0};
  constexpr std::size_t k_step = std::size_t{1} << 20;
  for (;;) {
    const std::size_t have = out.size();
    const std::size_t room = static_cast<std::size_t>(
        std::min<std::uint64_t>(k_step, entry.uncompressed_size - have + 1));
    out.resize(have + room);
    ZSTD_outBuffer o{out.data() + have, room, 0};
    const std::size_t r = ZSTD_decompressStream(stream.get(), &o, &in);
    out.resize(have + o.pos);
    if (ZSTD_isError(r) != 0)
      throw fail(fmt::format(": {}", ZSTD_getErrorName(r)));
    if (out.size() > entry.uncompressed_size)
      throw fail(": it holds more");
    if (r == 0 || (in.pos == in.size && o.pos < room))
      break;
  }
  if (out.size() != entry.uncompressed_size)
    throw fail(fmt::format(": it holds {}", out.size()));
  return out;
}

std::optional<std::string> fatbin_ptx(std::span<const std::byte> image, unsigned arch) {
  const FatbinEntry* chosen = nullptr;
  const auto entries = fatbin_entries(image);
  for (const auto& e : entries) {
    if (e.kind != FatbinEntry::Kind::ptx)
      continue;
    const bool fits = arch == 0 || e.arch <= arch;
    const bool chosen_fits = chosen != nullptr && (arch == 0 || chosen->arch <= arch);
    if (chosen == nullptr || (fits && !chosen_fits) ||
        (fits == chosen_fits && (fits ? e.arch > chosen->arch : e.arch < chosen->arch)))
      chosen = &e;
  }
  if (chosen == nullptr)
    return std::nullopt;
  const auto payload = fatbin_payload(*chosen);
  std::string text(reinterpret_cast<const char*>(payload.data()), payload.size());
  text.resize(std::strlen(text.c_str()));
  return text;
}

} // namespace gpurun::kit
