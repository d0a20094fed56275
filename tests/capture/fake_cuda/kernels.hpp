#pragma once
// The fake libcuda's kernels: each a host function chosen by the kernel's name
// (fake_module.hpp), run over grid × block threads. Each checks the layout it was launched with
// and that every range it touches lies inside an allocation; a kernel of another name does
// nothing.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "driver_state.hpp"

namespace gpurun::test::fake_cuda {

/// Runs `f` on the parameter bytes `params` with `threads` threads. The caller holds the mutex.
[[nodiscard]] CUresult run_kernel(const Function& f, const std::vector<std::byte>& params,
                                  std::uint64_t threads);

} // namespace gpurun::test::fake_cuda
