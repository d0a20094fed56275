// dlsym itself. glibc resolves dlsym(RTLD_NEXT, …) relative to its caller, found by the return
// address: a call passed on from a C++ function would resolve relative to this library instead.
// So dlsym is a jump: RTLD_NEXT and RTLD_DEFAULT go straight on to glibc's dlsym with the caller's
// return address untouched; any other handle to gpurun_capture_dlsym.
//
// glibc's dlsym is found by the jump itself, at its first use, with dlvsym(RTLD_NEXT, "dlsym",
// …) from here (the next dlsym after this library's is glibc's), not by a constructor: a program
// may call dlsym before this library's constructors run — ASan's runtime does, from the
// program's preinit, before its shadow memory exists, when no instrumented code can run yet. Nor
// can the link bind dlsym@GLIBC_2.2.5: the dynamic linker would take this library's own
// unversioned dlsym for it.
#include <cstring>

#include "capture/preload/real_driver.hpp"
#include "capture/preload/stand_in_tables.hpp"

extern "C" {

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

#if defined(__x86_64__)
// dlsym@GLIBC_2.2.5 is libdl's dlsym before glibc 2.34 and an alias of libc's after.
asm(R"(
  .text
  .globl dlsym
  .type dlsym, @function
dlsym:
  .cfi_startproc
  cmpq $-1, %rdi
  je 1f
  testq %rdi, %rdi
  je 1f
  jmp gpurun_capture_dlsym
1:
  movq gpurun_capture_glibc_dlsym(%rip), %rax
  testq %rax, %rax
  jne 2f
  pushq %rdi
  .cfi_adjust_cfa_offset 8
  pushq %rsi
  .cfi_adjust_cfa_offset 8
  subq $8, %rsp
  .cfi_adjust_cfa_offset 8
  movq $-1, %rdi
  leaq gpurun_capture_dlsym_name(%rip), %rsi
  leaq gpurun_capture_dlsym_version(%rip), %rdx
  call dlvsym@PLT
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  popq %rsi
  .cfi_adjust_cfa_offset -8
  popq %rdi
  .cfi_adjust_cfa_offset -8
  testq %rax, %rax
  je 3f
  movq %rax, gpurun_capture_glibc_dlsym(%rip)
2:
  jmp *%rax
3:
  ret
  .cfi_endproc
  .size dlsym, .-dlsym

  .section .rodata
gpurun_capture_dlsym_name:
  .asciz "dlsym"
gpurun_capture_dlsym_version:
  .asciz "GLIBC_2.2.5"

  .bss
  .balign 8
gpurun_capture_glibc_dlsym:
  .zero 8
  .text
)");
#else
#error "the capture interposer's dlsym is written for x86-64"
#endif
