#pragma once
// NumPy .npy files (format versions 1.0 and 2.0, and 3.0 for reading): C order, little-endian.
//
// dtypes: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 map to f16 f32 f64 i8 … u64; |b1 (bool)
// reads as u8. bf16 has no NumPy dtype: it is written as '<u2' holding the raw bf16 bits, so a
// bf16 buffer saved and read back comes back as u16 with the same bytes (a bf16 fill accepts such
// a file). Fortran-ordered, big-endian and structured arrays are rejected with a usage Error.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "base/host_buffer.hpp"

namespace gpurun {

/// Reads a whole .npy file; throws usage Error naming the file and the problem.
[[nodiscard]] HostBuffer read_npy(const std::filesystem::path& path);
/// Parses the bytes of a .npy file; `name` is used in errors.
[[nodiscard]] HostBuffer parse_npy(std::span<const std::byte> file, const std::string& name);

/// The bytes of a .npy file holding `buffer`, laid out as NumPy's own writer does (version 1.0,
/// or 2.0 when the header needs more than 65535 bytes; header padded to 64 bytes).
[[nodiscard]] std::vector<std::byte> encode_npy(const HostBuffer& buffer);
/// Writes `buffer` to `path` atomically.
void write_npy(const std::filesystem::path& path, const HostBuffer& buffer);

} // namespace gpurun
