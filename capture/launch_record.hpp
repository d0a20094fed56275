#pragma once
// One captured launch as the interposer took it, and the capture folder it becomes:
//   capture.json       the run spec that replays it (capture/replay_spec)
//   launch.json        the record: kernel, grid, block, dynamic shared memory, the parameters'
//                      slots and bytes, the pointers found in them, the allocations they point
//                      into (kind, size, the window saved, the files of their contents), what
//                      was left out and why
//   module.{ptx,cubin,fatbin}   the module image exactly as the program loaded it
//   params.bin         the raw parameter bytes, laid out as the kernel takes them
//   memory/aN.before.npy, memory/aN.after.npy   each saved window before and after the launch
// Every file is written atomically; docs/capture.md describes the folder.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backends/kit/module_image.hpp"
#include "capture/memory_plan.hpp"
#include "capture/pointer_scan.hpp"

namespace gpurun::capture {

/// The saved bytes of one window of an allocation (capture/memory_plan), before and after.
struct CapturedMemory {
  MemoryWindow window;
  std::vector<std::byte> before;
  std::vector<std::byte> after;
};

struct LaunchRecord {
  std::string kernel;        ///< the entry's name as the module has it (mangled for C++)
  std::uint64_t ordinal = 0; ///< which launch of this kernel it was (1: the first)
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;    ///< dynamic shared memory
  std::vector<ParamSlot> slots; ///< each parameter's offset and size in `params`
  std::vector<std::byte> params;
  std::vector<FoundPointer> pointers;
  std::vector<CapturedMemory> memory; ///< in order of first reference by `pointers`
  kit::ImageKind image_kind = kit::ImageKind::unknown;
  std::vector<std::byte> image;
  std::string device; ///< the model that ran it ("NVIDIA H200")
  std::string arch;   ///< "sm_90"
  /// Why the capture is incomplete (unified memory, a texture object, a cut allocation…); empty
  /// when it holds everything the launch read and wrote.
  std::vector<std::string> incomplete;
};

/// The index in `record.memory` of the window a pointer points into.
[[nodiscard]] std::optional<std::size_t> memory_index(const LaunchRecord& record,
                                                      const FoundPointer& pointer);

/// "module.fatbin", "module.cubin", "module.ptx".
[[nodiscard]] std::string image_file_name(kit::ImageKind kind);

/// Writes the capture folder `dir` (made when missing). Throws Error naming the file that could
/// not be written.
void write_capture(const std::filesystem::path& dir, const LaunchRecord& record);

} // namespace gpurun::capture
