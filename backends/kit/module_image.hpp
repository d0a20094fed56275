#pragma once
// CUDA module images as the driver takes them (cuModuleLoadData, cuLibraryLoadData): PTX text, a
// cubin (an NVIDIA ELF) or a fat binary holding several of both for different architectures. What
// an image is, how long it is (the driver is handed a pointer without a size, so a copy of it
// must find its end in its own headers), and a fat binary's entries with their payloads —
// decompressed where the fat binary stores them compressed (zstd in CUDA 13's fatbinary) — so
// that the PTX of an application's module can run on the CPU backend.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::kit {

class ImageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class ImageKind {
  ptx,            ///< text beginning with comments, `.version` or blanks
  cubin,          ///< an ELF image
  fatbin,         ///< a fat binary container (magic 0xBA55ED50)
  fatbin_wrapper, ///< the host's registration record (magic 0x466243B1) pointing at a fatbin
  unknown
};

/// "ptx", "cubin", "fatbin", "fatbin wrapper", "unknown".
[[nodiscard]] std::string_view to_string(ImageKind kind);

/// What the image starting with `head` is (16 bytes are enough; fewer give unknown unless the
/// text already tells).
[[nodiscard]] ImageKind image_kind(std::span<const std::byte> head);

/// The size in bytes of the image at the start of `bytes`, from the image's own headers: a
/// fatbin's header (its first container), an ELF's header, section and program header tables and
/// the sections they list, PTX up to its NUL (not counted). `bytes` is what may be read: a copy
/// of the image, or, for an image the driver is handed by pointer alone, a span reaching as far
/// as the image may (reads stay inside the tables the image itself describes). Throws ImageError
/// for an image that is none of these or whose tables lie past `bytes`.
[[nodiscard]] std::uint64_t image_size(std::span<const std::byte> bytes);

struct FatbinEntry {
  enum class Kind { ptx, elf, other };
  Kind kind = Kind::other;
  unsigned arch = 0;       ///< 90 for sm_90 / compute_90
  bool compressed = false; ///< the payload needs fatbin_payload() to be read
  std::uint64_t uncompressed_size = 0;
  std::span<const std::byte> stored; ///< the payload as stored (compressed or not)
};

/// The entries of every container of the fat binary `image`, in order. Throws ImageError for a
/// container or entry that does not fit the image.
[[nodiscard]] std::vector<FatbinEntry> fatbin_entries(std::span<const std::byte> image);

/// The entry's payload, decompressed. Throws ImageError for a compression it does not know or a
/// payload that does not decompress to its stated size.
[[nodiscard]] std::vector<std::byte> fatbin_payload(const FatbinEntry& entry);

/// The PTX of a fat binary: that of the highest architecture at most `arch` (any when 0), or of
/// the lowest when every one is above it; nullopt when the fat binary carries none.
[[nodiscard]] std::optional<std::string> fatbin_ptx(std::span<const std::byte> image,
                                                    unsigned arch = 0);

} // namespace gpurun::kit
