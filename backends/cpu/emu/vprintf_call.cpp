// Device printf: `call vprintf, (format, args)` formats on the host, one lane at a time in lane
// order, and hands each call's text on at once (one fwrite to stdout, or one call of the launch's
// output sink) so lines from parallel blocks never mix.
#include <cstdio>
#include <cstring>

#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "backends/cpu/emu/printf.hpp"

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
    std::string text = format_device_printf(format, read, args_address);
    {
      std::lock_guard lock(m_launch.output_mutex);
      if (m_launch.device_output) {
        m_launch.device_output(text);
      } else {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
      }
    }
    if (!site.rets.empty()) {
      auto length = static_cast<std::int32_t>(text.size());
      std::memcpy(frame + site.rets[0].offset, &length,
                  std::min<std::size_t>(4, site.rets[0].size));
    }
  }
}

} // namespace gpurun::emu
