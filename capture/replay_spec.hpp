#pragma once
// The run spec of a captured launch (`capture.json`): what `gpurun capture.json` replays. It is
// an ordinary run spec (docs/spec.md) over the capture folder's files:
//   source   the module image as the program loaded it (module.fatbin, .cubin or .ptx)
//   kernel   the entry's name as the module has it (mangled for C++)
//   args     one per parameter: a saved allocation passed whole is a buffer argument
//            ("a0=f32[1024]:@memory/a0.before.npy"); a pointer into the middle of one, or into
//            one another parameter reaches too, is "&a1+256"; a struct passed by value is a
//            record of its bytes with its pointers ("{&a2, u32:1024, u32:0}"); a number is a
//            typed scalar where the PTX gives its type ("f32:0.5"), else a record of its bytes
//   memory   the saved allocations no buffer argument holds, filled from their .npy files
//   expect   every saved allocation against its contents after the launch, bit for bit
// Element types come from the kernel's C++ name (float* → f32) where it is mangled, else u8.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "base/host_buffer.hpp"
#include "capture/launch_record.hpp"

namespace gpurun::capture {

/// The element type the launch's pointers give window `index` of `record.memory` (u8 when no
/// pointer's C type says, or the window's size or the pointers' offsets in it do not fit it).
[[nodiscard]] DType window_dtype(const LaunchRecord& record, std::size_t index);

/// The saved bytes as a buffer of `dtype` (the window's size must be a multiple of its size).
[[nodiscard]] HostBuffer as_buffer(const std::vector<std::byte>& bytes, DType dtype);

/// The run spec replaying `record`, whose memory windows are saved as
/// memory/aN.{before,after}.npy beside it.
[[nodiscard]] nlohmann::ordered_json replay_spec(const LaunchRecord& record);

/// The C types of a mangled kernel name's parameters, as demangled ("float const*", "int",
/// "Params"); empty when the name is not mangled (extern "C") or does not demangle.
[[nodiscard]] std::vector<std::string> demangled_parameter_types(const std::string& mangled);

} // namespace gpurun::capture
