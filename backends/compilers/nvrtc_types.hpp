#pragma once
// The part of the NVRTC API that gpurun calls, declared here so that gpurun builds on machines
// without the CUDA toolkit and loads whichever libnvrtc it finds at run time: the program handle,
// the result codes (with NVRTC's documented values) and one function-pointer type per entry point.
// tests/unit/backends/compilers/nvrtc_types_test.cpp compares them with nvrtc.h whenever the
// toolkit is present at build time. Names follow nvrtc.h; they live in gpurun::nvrtc.
#include <cstddef>

namespace gpurun::nvrtc {

struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;

// X(name, value): the result codes every NVRTC since 11.2 defines.
#define GPURUN_NVRTC_RESULTS(X)                                                                    \
  X(NVRTC_SUCCESS, 0)                                                                              \
  X(NVRTC_ERROR_OUT_OF_MEMORY, 1)                                                                  \
  X(NVRTC_ERROR_PROGRAM_CREATION_FAILURE, 2)                                                       \
  X(NVRTC_ERROR_INVALID_INPUT, 3)                                                                  \
  X(NVRTC_ERROR_INVALID_PROGRAM, 4)                                                                \
  X(NVRTC_ERROR_INVALID_OPTION, 5)                                                                 \
  X(NVRTC_ERROR_COMPILATION, 6)                                                                    \
  X(NVRTC_ERROR_BUILTIN_OPERATION_FAILURE, 7)                                                      \
  X(NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION, 8)                                          \
  X(NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION, 9)                                            \
  X(NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID, 10)                                                     \
  X(NVRTC_ERROR_INTERNAL_ERROR, 11)

// A fixed underlying type so that codes of newer NVRTCs are representable too.
#define GPURUN_NVRTC_ENUMERATOR(name, value) name = value,
enum nvrtcResult : int { GPURUN_NVRTC_RESULTS(GPURUN_NVRTC_ENUMERATOR) };
#undef GPURUN_NVRTC_ENUMERATOR

// Entry points, with nvrtc.h's parameter names. NVRTC exports them unversioned.
using nvrtcGetErrorString_fn = const char* (*)(nvrtcResult result);
using nvrtcVersion_fn = nvrtcResult (*)(int* major, int* minor);
using nvrtcCreateProgram_fn = nvrtcResult (*)(nvrtcProgram* prog, const char* src, const char* name,
                                              int numHeaders, const char* const* headers,
                                              const char* const* includeNames);
using nvrtcDestroyProgram_fn = nvrtcResult (*)(nvrtcProgram* prog);
using nvrtcCompileProgram_fn = nvrtcResult (*)(nvrtcProgram prog, int numOptions,
                                               const char* const* options);
using nvrtcGetPTXSize_fn = nvrtcResult (*)(nvrtcProgram prog, std::size_t* ptxSizeRet);
using nvrtcGetPTX_fn = nvrtcResult (*)(nvrtcProgram prog, char* ptx);
using nvrtcGetCUBINSize_fn = nvrtcResult (*)(nvrtcProgram prog, std::size_t* cubinSizeRet);
using nvrtcGetCUBIN_fn = nvrtcResult (*)(nvrtcProgram prog, char* cubin);
using nvrtcGetProgramLogSize_fn = nvrtcResult (*)(nvrtcProgram prog, std::size_t* logSizeRet);
using nvrtcGetProgramLog_fn = nvrtcResult (*)(nvrtcProgram prog, char* log);
using nvrtcAddNameExpression_fn = nvrtcResult (*)(nvrtcProgram prog, const char* name_expression);
using nvrtcGetLoweredName_fn = nvrtcResult (*)(nvrtcProgram prog, const char* name_expression,
                                               const char** lowered_name);
using nvrtcGetNumSupportedArchs_fn = nvrtcResult (*)(int* numArchs);
using nvrtcGetSupportedArchs_fn = nvrtcResult (*)(int* supportedArchs);

// X(function): every entry point gpurun binds; the symbol is the function's name.
#define GPURUN_NVRTC_FUNCTIONS(X)                                                                  \
  X(nvrtcGetErrorString)                                                                           \
  X(nvrtcVersion)                                                                                  \
  X(nvrtcCreateProgram)                                                                            \
  X(nvrtcDestroyProgram)                                                                           \
  X(nvrtcCompileProgram)                                                                           \
  X(nvrtcGetPTXSize)                                                                               \
  X(nvrtcGetPTX)                                                                                   \
  X(nvrtcGetCUBINSize)                                                                             \
  X(nvrtcGetCUBIN)                                                                                 \
  X(nvrtcGetProgramLogSize)                                                                        \
  X(nvrtcGetProgramLog)                                                                            \
  X(nvrtcAddNameExpression)                                                                        \
  X(nvrtcGetLoweredName)                                                                           \
  X(nvrtcGetNumSupportedArchs)                                                                     \
  X(nvrtcGetSupportedArchs)

} // namespace gpurun::nvrtc
