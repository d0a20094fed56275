// The capture kernel's text, built into the binary so `gpurun threads --run` works wherever the
// binary is copied. The build generates threads_capture.inc from
// kernels/internal/threads_capture.cu (CMakeLists.txt), so the file stays the one place the kernel
// is written.
#include "threads/thread_capture.hpp"

namespace gpurun {

std::string_view threads_capture_source() {
  static constexpr std::string_view text =
#include "threads_capture.inc"
      ;
  return text;
}

} // namespace gpurun
