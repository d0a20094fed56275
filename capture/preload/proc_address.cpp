// cuGetProcAddress, through which CUDA 12+'s runtime and PyTorch find every entry point: the
// driver answers first (so a symbol it lacks stays missing), then the stand-in replaces what it
// handed out, for the ABI version asked for and the per-thread default stream flag. Asked for
// cuGetProcAddress itself, it hands out its own, so that later lookups come here too.
#include <string_view>

#include "capture/preload/real_driver.hpp"
#include "capture/preload/stand_in_tables.hpp"
#include "capture/preload/stand_ins.hpp"

using namespace gpurun::capture::cu;
using namespace gpurun::capture::preload;

namespace {

/// Replaces what the driver handed out for `symbol` in `*pfn` with the stand-in, if any.
void hand_out_stand_in(const char* symbol, void** pfn, int cuda_version, std::uint64_t flags) {
  if (symbol == nullptr || pfn == nullptr || *pfn == nullptr)
    return;
  if (std::string_view(symbol) == "cuGetProcAddress")
    *pfn = cuda_version >= 12000 ? reinterpret_cast<void*>(&cuGetProcAddress_v2)
                                 : reinterpret_cast<void*>(&cuGetProcAddress);
  else if (void* own = stand_in(symbol, cuda_version, flags))
    *pfn = own;
}

} // namespace

extern "C" {

CUresult cuGetProcAddress(const char* symbol, void** pfn, int cuda_version, std::uint64_t flags) {
  GPURUN_REAL(cuGetProcAddress_fn, "cuGetProcAddress");
  const CUresult r = real_fn(symbol, pfn, cuda_version, flags);
  if (r == k_success)
    hand_out_stand_in(symbol, pfn, cuda_version, flags);
  return r;
}

CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cuda_version, std::uint64_t flags,
                             int* status) {
  GPURUN_REAL(cuGetProcAddress_v2_fn, "cuGetProcAddress_v2");
  const CUresult r = real_fn(symbol, pfn, cuda_version, flags, status);
  if (r == k_success)
    hand_out_stand_in(symbol, pfn, cuda_version, flags);
  return r;
}

} // extern "C"
