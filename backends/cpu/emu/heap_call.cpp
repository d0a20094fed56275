// In-kernel malloc and free: NVRTC leaves them as calls to external functions, which the driver
// provides on a GPU and the emulator here, on the context's DeviceHeap. With --memcheck a double
// free and a free of a pointer malloc did not return are findings; without it they are ignored
// as the device's allocator does.
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/emu/device_heap.hpp"
#include "backends/cpu/emu/findings.hpp"
#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/sanitize.hpp"

namespace gpurun::emu {

void device_heap_call(Warp& w, const Inst& in, std::uint32_t exec) {
  Block& b = *w.block;
  LaunchState& L = *b.launch;
  const CallSite& site = L.program->call_sites[in.aux];
  const bool is_malloc = in.target == 1;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    const int l = std::countr_zero(g);
    std::byte* frame = b.local_of(w.index, l) + w.frame_base[l];
    std::uint64_t arg = 0;
    if (!site.args.empty())
      std::memcpy(&arg, frame + site.args[0].offset, std::min<std::size_t>(8, site.args[0].size));
    if (is_malloc) {
      const std::uint64_t address = L.heap ? L.heap->allocate(arg) : 0;
      if (!site.rets.empty()) {
        const std::size_t n = std::min<std::size_t>(8, site.rets[0].size);
        std::memcpy(frame + site.rets[0].offset, &address, n);
        note_local_written(b, frame + site.rets[0].offset, n);
      }
      continue;
    }
    const auto result = L.heap ? L.heap->release(arg) : DeviceHeap::FreeResult::not_a_block;
    if (!L.memcheck || result == DeviceHeap::FreeResult::ok ||
        result == DeviceHeap::FreeResult::null)
      continue;
    const std::uint32_t pc = static_cast<std::uint32_t>(&in - L.program->code.data());
    const bool twice = result == DeviceHeap::FreeResult::double_free;
    L.findings.report(FindingKey{Tool::memcheck, twice ? 100u : 101u, pc, 0}, Severity::error,
                      report_order(*w.block, static_cast<std::uint32_t>(w.index) * kWarpSize + l),
                      [&] {
      const Dim3 t = thread_index(L.block, w.index, l);
      return fmt::format("{} {:#x}{} in kernel '{}' block ({},{},{}) thread ({},{},{}) at {}",
                         twice ? "double free of" : "free of", arg,
                         twice ? "" : ", a pointer malloc did not return", L.kernel->name,
                         b.index.x, b.index.y, b.index.z, t.x, t.y, t.z, source_text(L, pc));
    });
  }
}

} // namespace gpurun::emu
