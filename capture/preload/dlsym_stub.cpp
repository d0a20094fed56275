// dlsym itself. glibc resolves dlsym(RTLD_NEXT, …) relative to its caller, found by the return
// address: a call passed on from a C++ function would resolve relative to this library instead.
// So dlsym is a jump: RTLD_NEXT goes straight on to glibc's dlsym with the caller's return address
// untouched; any other handle to gpurun_capture_dlsym.
#include <cstring>

#include "capture/preload/real_driver.hpp"
#include "capture/preload/stand_in_tables.hpp"

extern "C" {

__attribute__((visibility("hidden"))) void* gpurun_capture_real_dlsym = nullptr;

/// dlsym on a handle (libcuda's, a program that loads the driver itself): the stand-in where
/// there is one under that exported name, else what the driver exports.
__attribute__((visibility("hidden"))) void* gpurun_capture_dlsym(void* handle, const char* symbol) {
  const gpurun::capture::preload::dlsym_fn d = gpurun::capture::preload::real_dlsym();
  if (d == nullptr)
    return nullptr;
  void* found = d(handle, symbol);
  if (found == nullptr || symbol == nullptr || std::strncmp(symbol, "cu", 2) != 0)
    return found;
  void* own = gpurun::capture::preload::exported_stand_in(symbol);
  return own != nullptr ? own : found;
}

} // extern "C"

__attribute__((constructor)) static void gpurun_capture_init() {
  gpurun_capture_real_dlsym = reinterpret_cast<void*>(gpurun::capture::preload::real_dlsym());
}

#if defined(__x86_64__)
asm(R"(
  .text
  .globl dlsym
  .type dlsym, @function
dlsym:
  cmpq $-1, %rdi
  jne 1f
  movq gpurun_capture_real_dlsym(%rip), %rax
  testq %rax, %rax
  je 1f
  jmp *%rax
1:
  jmp gpurun_capture_dlsym
  .size dlsym, .-dlsym
)");
#else
#error "the capture interposer's dlsym is written for x86-64"
#endif
