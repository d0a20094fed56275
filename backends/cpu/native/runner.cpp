#include "backends/cpu/native/runner.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::native {

namespace {

using native_abi::Window;

/// An access the fast path could not take: the exact translation the interpreter does (without
/// its sanitizers, which keep a kernel on the interpreter), recording the first fault.
std::uint8_t* translate(native_abi::Block* b, std::uint64_t address, std::uint32_t bytes,
                        std::uint32_t space, std::uint32_t write, std::uint32_t site,
                        std::uint32_t line, std::uint32_t thread) {
  const auto& launch = *static_cast<const emu::LaunchState*>(b->launch->host);
  auto fault = [&]() -> std::uint8_t* {
    if (b->fault == 0) {
      b->fault = 1;
      b->fault_thread = thread;
      b->fault_line = line;
    }
    return nullptr;
  };
  if (bytes != 0 && (address & (bytes - 1)) != 0)
    return fault();
  auto s = static_cast<emu::Space>(space);
  if (s == emu::Space::generic) {
    switch (emu::window_of(address)) {
    case emu::Window::shared:
      s = emu::Space::shared;
      break;
    case emu::Window::local:
      s = emu::Space::local;
      break;
    case emu::Window::param:
      s = emu::Space::param_kernel;
      break;
    case emu::Window::global:
      s = emu::Space::global;
      break;
    }
  }
  switch (s) {
  case emu::Space::shared: {
    const std::uint64_t off = address - emu::kSharedBase;
    if (off >= emu::kSharedWindow || off + bytes > b->shared.size)
      return fault();
    b->sites[site] = b->shared;
    return b->shared.host + off;
  }
  case emu::Space::param_kernel: {
    const std::uint64_t off = address - emu::kParamBase;
    if (write != 0 || off >= emu::kParamWindow || off + bytes > launch.params.size())
      return fault();
    return const_cast<std::uint8_t*>(b->launch->params) + off;
  }
  case emu::Space::global:
  case emu::Space::const_: {
    const emu::Allocation* a = launch.memory.find(address, bytes);
    if (a == nullptr)
      return fault();
    b->sites[site] = Window{a->address, a->size, reinterpret_cast<std::uint8_t*>(a->host)};
    return reinterpret_cast<std::uint8_t*>(a->host) + (address - a->address);
  }
  default:
    return fault();
  }
}

namespace nm = emu::numeric;

const native_abi::SpecialFunctions k_special_functions{
    [](float a, bool ftz) { return nm::rcp_approx(a, ftz); },
    [](float a, bool ftz) { return nm::sqrt_approx(a, ftz); },
    [](float a, bool ftz) { return nm::rsqrt_approx(a, ftz); },
    [](float a, bool ftz) { return nm::ex2_approx(a, ftz); },
    [](float a, bool ftz) { return nm::lg2_approx(a, ftz); },
    [](float a, bool ftz) { return nm::sin_approx(a, ftz); },
    [](float a, bool ftz) { return nm::cos_approx(a, ftz); },
    [](float a) { return nm::tanh_approx(a); },
    [](float a, float b, bool ftz) { return nm::div_approx(a, b, ftz); },
    [](float a, float b, bool ftz) { return nm::div_full(a, b, ftz); },
    [](double a) { return nm::rcp_approx_ftz_f64(a); },
    [](double a) { return nm::rsqrt_approx(a); },
    [](double a) { return nm::rsqrt_approx_ftz_f64(a); },
};

} // namespace

std::size_t block_shared_bytes(const emu::LaunchState& launch) {
  const emu::Program& p = *launch.program;
  std::size_t shared = p.shared_layout_bytes;
  if (launch.dynamic_shared)
    shared = (shared + p.shared_align - 1) / p.shared_align * p.shared_align + launch.dynamic_shared;
  return shared;
}

BlockRunner::BlockRunner(emu::LaunchState& launch, std::shared_ptr<const CompiledKernel> kernel)
    : m_launch(launch), m_kernel(std::move(kernel)) {
  const auto& table = m_kernel->table();
  const std::uint32_t threads = static_cast<std::uint32_t>(launch.block.volume());
  m_abi.params = reinterpret_cast<const std::uint8_t*>(launch.params.data());
  m_abi.grid[0] = launch.grid.x;
  m_abi.grid[1] = launch.grid.y;
  m_abi.grid[2] = launch.grid.z;
  m_abi.block[0] = launch.block.x;
  m_abi.block[1] = launch.block.y;
  m_abi.block[2] = launch.block.z;
  m_abi.threads = threads;
  m_abi.grid_id = launch.grid_id;
  m_abi.translate = &translate;
  m_abi.sfu = &k_special_functions;
  m_abi.host = &launch;
  m_regs.assign(std::size_t{table.register_slots} * threads, 0);
  m_regs32.assign(std::size_t{table.register_slots} * threads, 0);
  m_preds.assign(std::size_t{table.predicate_slots} * threads, 0);
  m_at.assign(threads, 0);
  m_resume.assign(threads, 0);
  m_barriers.assign(threads, 0);
  // Empty windows: the first access of each site takes the exact path, which fills them in.
  m_sites.assign(std::max<std::uint32_t>(table.sites, 1), Window{});
  m_shared.assign(std::max<std::size_t>(block_shared_bytes(launch), 1), 0);
  m_block.launch = &m_abi;
  m_block.regs = m_regs.data();
  m_block.regs32 = m_regs32.data();
  m_block.preds = m_preds.data();
  m_block.at = m_at.data();
  m_block.resume = m_resume.data();
  m_block.barriers = m_barriers.data();
  m_block.sites = m_sites.data();
  m_block.shared = Window{emu::kSharedBase, block_shared_bytes(launch), m_shared.data()};
  const std::size_t rows = std::size_t{launch.block.y} * launch.block.z;
  m_memo.assign(2 * table.memo_regions + native_abi::kMemoEntries * rows * table.memo_slots, 0);
  m_block.memo = m_memo.data();
}

bool BlockRunner::run_block(Dim3 index) {
  const auto& table = m_kernel->table();
  const std::uint32_t threads = m_abi.threads;
  m_block.ctaid[0] = index.x;
  m_block.ctaid[1] = index.y;
  m_block.ctaid[2] = index.z;
  m_block.fault = 0;
  std::fill(m_at.begin(), m_at.end(), 0u);
  if (table.barriers != nullptr) // only barriers count
    std::fill(m_barriers.begin(), m_barriers.end(), 0u);
  // Shared memory starts zeroed on every block, as on the interpreter.
  std::fill(m_shared.begin(), m_shared.end(), std::uint8_t{0});
  // Every thread starts at the entry region. After each region ran, the module's scan (compiled
  // for the host's vectors) finds the lowest region any thread waits at, which runs next, and
  // whether the fast loop left a thread at an access, which is then finished exactly, one by one.
  std::uint32_t lowest = 0;
  std::uint32_t waiting = threads;
  native_abi::Scan scan;
  for (;;) {
    if (m_launch.cancel.load(std::memory_order_relaxed))
      throw emu::Cancelled{};
    const std::uint32_t region = lowest;
    const std::uint32_t next = table.fast[region](&m_block, waiting == threads ? 1u : 0u);
    if (next != native_abi::kScan) { // every thread waits there, none to resume
      if (next == native_abi::kDone) {
        check_barrier_counts(index);
        return true;
      }
      lowest = next;
      waiting = threads;
      continue;
    }
    table.scan(&m_block, &scan);
    if (scan.resume != 0) [[unlikely]] {
      for (std::uint32_t t = 0; t < threads; ++t) {
        if (m_resume[t] == 0)
          continue;
        const std::uint32_t site = m_resume[t];
        m_resume[t] = 0;
        if (table.resume[region](&m_block, t, site) != 0) {
          std::fill(m_resume.begin(), m_resume.end(), 0u);
          return false;
        }
      }
      table.scan(&m_block, &scan);
    }
    if (scan.lowest == native_abi::kDone) {
      check_barrier_counts(index);
      return true;
    }
    lowest = scan.lowest;
    waiting = scan.waiting;
  }
}

void BlockRunner::check_barrier_counts(Dim3 index) {
  if (m_kernel->table().barriers == nullptr) // a kernel without barriers
    return;
  native_abi::Scan counts;
  m_kernel->table().barriers(&m_block, &counts);
  if (counts.most == counts.fewest)
    return;
  // Threads disagree: the first thread with the most and the first with the fewest.
  std::uint32_t most = 0, fewest = ~0u, most_thread = 0, fewest_thread = 0;
  for (std::uint32_t t = 0; t < m_abi.threads; ++t) {
    const std::uint32_t n = m_barriers[t];
    if (n > most) {
      most = n;
      most_thread = t;
    }
    if (n < fewest) {
      fewest = n;
      fewest_thread = t;
    }
  }
  if (most == 0 || most == fewest)
    return;
  auto thread = [&](std::uint32_t t) {
    return emu::thread_index(m_launch.block, static_cast<int>(t / 32), static_cast<int>(t % 32));
  };
  emu::record_barrier_mismatch(m_launch, index, thread(most_thread), most, thread(fewest_thread),
                               fewest);
}

std::string BlockRunner::fault_location() const {
  const Dim3 t = emu::thread_index(m_launch.block, static_cast<int>(m_block.fault_thread / 32),
                                   static_cast<int>(m_block.fault_thread % 32));
  return fmt::format("at block ({},{},{}) thread ({},{},{}), PTX line {}", m_block.ctaid[0],
                     m_block.ctaid[1], m_block.ctaid[2], t.x, t.y, t.z, m_block.fault_line);
}

} // namespace gpurun::native
