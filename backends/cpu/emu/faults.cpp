// Messages for device faults found while translating addresses. They are thrown as Fault (lane
// plus text) and completed with kernel, block, thread and line by the interpreter.
#include <fmt/format.h>

#include "backends/cpu/emu/memory_access.hpp"

namespace gpurun::emu {

namespace {
const char* space_name(Space s) {
  switch (s) {
  case Space::global:
    return "global";
  case Space::shared:
    return "shared";
  case Space::local:
  case Space::param_frame:
    return "local";
  case Space::param_kernel:
    return "param";
  case Space::const_:
    return "const";
  case Space::generic:
    return "generic";
  }
  return "?";
}
} // namespace

void throw_access_fault(const Warp& w, int lane, Space space, std::uint64_t address, unsigned bytes,
                        bool write) {
  const Block& b = *w.block;
  const char* kind = write ? "write" : "read";
  std::string where;
  switch (space) {
  case Space::shared:
    if (b.shared_var_count && address - kSharedBase < kSharedWindow)
      check_shared_variable(w, lane, address - kSharedBase, bytes, write); // names the variable
    where = fmt::format("shared offset {} (the block has {} bytes of shared memory)",
                        static_cast<std::int64_t>(address - kSharedBase), b.shared_bytes);
    break;
  case Space::local:
  case Space::param_frame:
    where = fmt::format("local offset {} (each thread has {} bytes of local memory)",
                        static_cast<std::int64_t>(address - kLocalBase), b.local_per_thread);
    break;
  case Space::param_kernel:
    where = write ? "a kernel parameter (read-only)"
                  : fmt::format("param offset {} (the kernel has {} bytes of parameters)",
                                static_cast<std::int64_t>(address - kParamBase),
                                b.launch->params.size());
    break;
  default:
    where = fmt::format("address {:#x}: {}", address, b.launch->memory.describe(address, bytes));
    break;
  }
  throw Fault{fmt::format("made an out-of-bounds {} {} of {} bytes at {}", space_name(space), kind,
                          bytes, where),
              lane};
}

void check_shared_variable(const Warp& w, int lane, std::uint64_t off, unsigned bytes, bool write) {
  const Block& b = *w.block;
  if (b.shared_var_count == 0)
    return; // shared memory reached without a declared variable: the window check suffices
  const SharedVariable* before = nullptr; // the last variable starting at or below `off`
  for (std::size_t i = 0; i < b.shared_var_count; ++i) {
    const SharedVariable& v = b.shared_vars[i];
    if (off >= v.offset && off + bytes <= std::uint64_t{v.offset} + v.size)
      return;
    if (v.offset <= off && (!before || v.offset >= before->offset))
      before = &v;
  }
  auto label = [](const SharedVariable& v) {
    return fmt::format("shared variable '{}' ({} bytes at shared offset {}{})", v.name, v.size,
                       v.offset, v.dynamic ? ", dynamic" : "");
  };
  std::string where;
  if (!before) {
    where =
        fmt::format("{} bytes before {}", b.shared_vars[0].offset - off, label(b.shared_vars[0]));
  } else if (off >= std::uint64_t{before->offset} + before->size) {
    where = fmt::format("{} bytes past the end of {}", off - before->offset - before->size,
                        label(*before));
  } else {
    where = fmt::format("offset {} of {} (a {}-byte access runs past its end)",
                        off - before->offset, label(*before), bytes);
  }
  throw Fault{fmt::format("made an out-of-bounds shared {} of {} bytes at shared offset {}: {}",
                          write ? "write" : "read", bytes, off, where),
              lane};
}

void throw_misaligned(const Warp& w, int lane, std::uint64_t address, unsigned bytes) {
  std::string where;
  if (window_of(address) == Window::global)
    where = fmt::format(" ({})", w.block->launch->memory.describe(address, bytes));
  throw Fault{
      fmt::format("made a misaligned {}-byte access at address {:#x}{}", bytes, address, where),
      lane};
}

} // namespace gpurun::emu
