#pragma once
// Device printf formatted on the host, following CUDA's vprintf convention: the kernel packs the
// arguments into a buffer, each aligned to its own size (4 for int/char, 8 for long, pointers and
// double; float arrives promoted to double), and passes the buffer's address.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gpurun::emu {

/// Reads `n` bytes of device memory at `addr` into `out` (throws on a bad address).
using DeviceReader = std::function<void(std::uint64_t addr, void* out, std::size_t n)>;

/// Formats `format` with the arguments packed at `args_address`, consuming them per conversion.
/// Supports %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %a %A %% with the flags `-+ #0`, width,
/// precision and the length modifiers h hh l ll z j t (L is accepted for floating conversions).
/// %s reads a NUL-terminated string through `read_memory` ("(null)" for a null pointer).
/// Each conversion is rendered by the host C library, so the text is exactly C's. A conversion
/// CUDA does not support (`*` width or precision, %n, an unknown letter) is copied to the output
/// as written and consumes no argument.
[[nodiscard]] std::string format_device_printf(std::string_view format,
                                               const DeviceReader& read_memory,
                                               std::uint64_t args_address);

/// One printf call as the GPU sees it: the text, what printf returns (the number of arguments
/// the format consumed, as CUDA's printf does), and the bytes its record takes in the GPU's
/// printf buffer (a 16-byte header, 8 bytes per argument, and the bytes of every %s string).
struct DevicePrintfCall {
  std::string text;
  int arguments = 0;
  std::size_t record_bytes = 0;
};
[[nodiscard]] DevicePrintfCall format_device_printf_call(std::string_view format,
                                                         const DeviceReader& read_memory,
                                                         std::uint64_t args_address);

} // namespace gpurun::emu
