#pragma once
// The part of the hipRTC API that gpurun calls, declared here so that the compilers build on
// machines without ROCm's headers and load whichever hipRTC they find at run time: the program
// handle, the result codes (hipRTC's values, NVRTC's) and one function-pointer type per entry
// point, plus the one call of the HIP runtime beside it that the loader asks for its version.
// tests/unit/backends/compilers/hiprtc_types_test.cpp compares them with hip/hiprtc.h and
// hip/hip_runtime_api.h whenever those are present at build time. Names follow hiprtc.h; they
// live in gpurun::hiprtc.
#include <cstddef>

namespace gpurun::hiprtc {

struct _hiprtcProgram;
using hiprtcProgram = _hiprtcProgram*;

// X(name, value): the result codes of hipRTC since ROCm 5.
#define GPURUN_HIPRTC_RESULTS(X)                                                                   \
  X(HIPRTC_SUCCESS, 0)                                                                             \
  X(HIPRTC_ERROR_OUT_OF_MEMORY, 1)                                                                 \
  X(HIPRTC_ERROR_PROGRAM_CREATION_FAILURE, 2)                                                      \
  X(HIPRTC_ERROR_INVALID_INPUT, 3)                                                                 \
  X(HIPRTC_ERROR_INVALID_PROGRAM, 4)                                                               \
  X(HIPRTC_ERROR_INVALID_OPTION, 5)                                                                \
  X(HIPRTC_ERROR_COMPILATION, 6)                                                                   \
  X(HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE, 7)                                                     \
  X(HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION, 8)                                         \
  X(HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION, 9)                                           \
  X(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID, 10)                                                    \
  X(HIPRTC_ERROR_INTERNAL_ERROR, 11)

// A fixed underlying type so that codes of newer hipRTCs are representable too.
#define GPURUN_HIPRTC_ENUMERATOR(name, value) name = value,
enum hiprtcResult : int { GPURUN_HIPRTC_RESULTS(GPURUN_HIPRTC_ENUMERATOR) };
#undef GPURUN_HIPRTC_ENUMERATOR

// Entry points, with hiprtc.h's parameter names (its arrays of strings are not const).
using hiprtcGetErrorString_fn = const char* (*)(hiprtcResult result);
using hiprtcVersion_fn = hiprtcResult (*)(int* major, int* minor);
using hiprtcCreateProgram_fn = hiprtcResult (*)(hiprtcProgram* prog, const char* src,
                                                const char* name, int numHeaders,
                                                const char** headers, const char** includeNames);
using hiprtcDestroyProgram_fn = hiprtcResult (*)(hiprtcProgram* prog);
using hiprtcAddNameExpression_fn = hiprtcResult (*)(hiprtcProgram prog,
                                                    const char* name_expression);
using hiprtcCompileProgram_fn = hiprtcResult (*)(hiprtcProgram prog, int numOptions,
                                                 const char** options);
using hiprtcGetProgramLogSize_fn = hiprtcResult (*)(hiprtcProgram prog, std::size_t* logSizeRet);
using hiprtcGetProgramLog_fn = hiprtcResult (*)(hiprtcProgram prog, char* log);
using hiprtcGetCodeSize_fn = hiprtcResult (*)(hiprtcProgram prog, std::size_t* codeSizeRet);
using hiprtcGetCode_fn = hiprtcResult (*)(hiprtcProgram prog, char* code);
using hiprtcGetLoweredName_fn = hiprtcResult (*)(hiprtcProgram prog, const char* name_expression,
                                                 const char** lowered_name);

// X(function): every entry point gpurun binds; the symbol is the function's name.
#define GPURUN_HIPRTC_FUNCTIONS(X)                                                                 \
  X(hiprtcGetErrorString)                                                                          \
  X(hiprtcVersion)                                                                                 \
  X(hiprtcCreateProgram)                                                                           \
  X(hiprtcDestroyProgram)                                                                          \
  X(hiprtcAddNameExpression)                                                                       \
  X(hiprtcCompileProgram)                                                                          \
  X(hiprtcGetProgramLogSize)                                                                       \
  X(hiprtcGetProgramLog)                                                                           \
  X(hiprtcGetCodeSize)                                                                             \
  X(hiprtcGetCode)                                                                                 \
  X(hiprtcGetLoweredName)

// The runtime's hipRuntimeGetVersion, of which only success is told apart.
enum hipError_t : int { hipSuccess = 0 };
using hipRuntimeGetVersion_fn = hipError_t (*)(int* runtimeVersion);

} // namespace gpurun::hiprtc
