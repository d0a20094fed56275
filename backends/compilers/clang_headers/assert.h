// <assert.h> for device code: a failed assert calls the CUDA runtime's __assertfail, as nvcc's
// does. NDEBUG switches it off, and the header may be included again with NDEBUG changed.
#include <stddef.h>
#undef assert
extern "C" __device__ void __assertfail(const char* message, const char* file, unsigned int line,
                                        const char* function, size_t char_size);
#ifdef NDEBUG
#define assert(e) (static_cast<void>(0))
#else
#define assert(e)                                                                                  \
  ((e) ? static_cast<void>(0)                                                                      \
       : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
