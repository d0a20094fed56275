// The capture kernel's text, built into the binary so `gpurun threads --run` works wherever the
// binary is copied. The build generates threads_capture.inc from
// kernels/internal/threads_capture.cu (CMakeLists.txt), and threads_capture_cl.inc from its OpenCL C
// twin, so the files stay the one place each kernel is written.
#include "threads/thread_capture.hpp"

namespace gpurun {

std::string_view threads_capture_source() {
  static constexpr std::string_view text =
#include "threads_capture.inc"
      ;
  return text;
}

std::string_view threads_capture_opencl_source() {
  static constexpr std::string_view text =
#include "threads_capture_cl.inc"
      ;
  return text;
}

} // namespace gpurun
