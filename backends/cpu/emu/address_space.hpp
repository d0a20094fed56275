#pragma once
// The emulator's generic address space. Each state space gets its own window so that a generic
// address tells which memory it points into (cvta is then the identity) and so that a global
// address can be mapped back to the allocation it belongs to (memcheck, fault messages).
#include <cstdint>

namespace gpurun::emu {

// Shared and local windows stay below 4 GiB so that 32-bit shared/local addresses
// (cvta.to.shared.u32) are the same numbers as their 64-bit generic forms.
inline constexpr std::uint64_t kSharedBase = 0x0100'0000;
inline constexpr std::uint64_t kSharedWindow = 0x0100'0000; // 16 MiB per block at most
inline constexpr std::uint64_t kLocalBase = 0x0200'0000;
inline constexpr std::uint64_t kLocalWindow = 0x0100'0000; // 16 MiB per thread at most
inline constexpr std::uint64_t kParamBase = 0x0300'0000;
inline constexpr std::uint64_t kParamWindow = 0x0001'0000; // kernel parameters (≤ 32 KB on sm_90)
// Device allocations and module globals: far above the other windows, so a small integer or a
// stray shared/local offset never aliases a buffer.
inline constexpr std::uint64_t kGlobalBase = 0x7f00'0000'0000;

enum class Window : std::uint8_t { global, shared, local, param };

[[nodiscard]] inline Window window_of(std::uint64_t generic) noexcept {
  if (generic - kSharedBase < kSharedWindow)
    return Window::shared;
  if (generic - kLocalBase < kLocalWindow)
    return Window::local;
  if (generic - kParamBase < kParamWindow)
    return Window::param;
  return Window::global;
}

} // namespace gpurun::emu
