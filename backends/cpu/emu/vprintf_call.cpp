// Device printf: `call vprintf, (format, args)` formats on the host, one lane at a time in lane
// order, and hands each call's text on at once (one fwrite to stdout, or one call of the launch's
// output sink) so lines from parallel blocks never mix. The launch's printf buffer is bounded as
// the GPU's is (--printf-buffer): a call whose record does not fit is dropped and counted.
#include <cstdio>
#include <cstring>

#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "backends/cpu/emu/printf.hpp"
#include "backends/cpu/emu/sanitize.hpp"

namespace gpurun::emu {

void Interpreter::device_printf(Warp& w, const Inst& in, std::uint32_t exec) {
  const CallSite& site = m_program.call_sites[in.aux];
  if (site.args.size() < 2)
    return;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    int l = std::countr_zero(g);
    std::byte* frame = m_block.local_of(w.index, l) + w.frame_base[l];
    std::uint64_t format_address = 0, args_address = 0;
    std::memcpy(&format_address, frame + site.args[0].offset, 8);
    std::memcpy(&args_address, frame + site.args[1].offset, 8);
    auto read = [&](std::uint64_t address, void* out, std::size_t n) {
      if (n == 0)
        return;
      std::byte* p = translate(w, Space::generic, address, static_cast<unsigned>(n), l, false);
      std::memcpy(out, p, n);
    };
    std::string format;
    for (std::uint64_t a = format_address;; ++a) {
      char c = 0;
      read(a, &c, 1);
      if (c == 0)
        break;
      format.push_back(c);
    }
    const DevicePrintfCall call = format_device_printf_call(format, read, args_address);
    // What printf returns: the arguments it consumed, or -2 (CUDA's "internal error") when the
    // printf buffer was full and the call was dropped, as on the GPU.
    std::int32_t result = call.arguments;
    {
      std::lock_guard lock(m_launch.output_mutex);
      ++m_launch.printf_calls;
      if (call.record_bytes > m_launch.printf_capacity - m_launch.printf_used) {
        ++m_launch.printf_dropped;
        result = -2;
      } else {
        m_launch.printf_used += call.record_bytes;
        if (m_launch.device_output) {
          m_launch.device_output(call.text);
        } else {
          std::fwrite(call.text.data(), 1, call.text.size(), stdout);
          std::fflush(stdout);
        }
      }
    }
    if (!site.rets.empty()) {
      const std::size_t n = std::min<std::size_t>(4, site.rets[0].size);
      std::memcpy(frame + site.rets[0].offset, &result, n);
      note_local_written(m_block, frame + site.rets[0].offset, n);
    }
  }
}

} // namespace gpurun::emu
