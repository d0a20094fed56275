#include "backends/opencl/api.hpp"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

namespace gpurun::opencl {
namespace {

const char* bind_api(void* h, Api& api) {
#define GPURUN_CL_BIND(member, symbol)                                                             \
  if (!dl::bind(h, api.member, #symbol))                                                           \
  return #symbol
  GPURUN_CL_BIND(get_platform_ids, clGetPlatformIDs);
  GPURUN_CL_BIND(get_platform_info, clGetPlatformInfo);
  GPURUN_CL_BIND(get_device_ids, clGetDeviceIDs);
  GPURUN_CL_BIND(get_device_info, clGetDeviceInfo);
  GPURUN_CL_BIND(create_context, clCreateContext);
  GPURUN_CL_BIND(release_context, clReleaseContext);
  GPURUN_CL_BIND(create_command_queue, clCreateCommandQueue);
  GPURUN_CL_BIND(release_command_queue, clReleaseCommandQueue);
  GPURUN_CL_BIND(create_buffer, clCreateBuffer);
  GPURUN_CL_BIND(release_mem_object, clReleaseMemObject);
  GPURUN_CL_BIND(enqueue_write_buffer, clEnqueueWriteBuffer);
  GPURUN_CL_BIND(enqueue_read_buffer, clEnqueueReadBuffer);
  GPURUN_CL_BIND(enqueue_copy_buffer, clEnqueueCopyBuffer);
  GPURUN_CL_BIND(enqueue_fill_buffer, clEnqueueFillBuffer);
  GPURUN_CL_BIND(create_program_with_source, clCreateProgramWithSource);
  GPURUN_CL_BIND(create_program_with_binary, clCreateProgramWithBinary);
  GPURUN_CL_BIND(build_program, clBuildProgram);
  GPURUN_CL_BIND(get_program_info, clGetProgramInfo);
  GPURUN_CL_BIND(get_program_build_info, clGetProgramBuildInfo);
  GPURUN_CL_BIND(release_program, clReleaseProgram);
  GPURUN_CL_BIND(create_kernel, clCreateKernel);
  GPURUN_CL_BIND(get_kernel_info, clGetKernelInfo);
  GPURUN_CL_BIND(get_kernel_arg_info, clGetKernelArgInfo);
  GPURUN_CL_BIND(get_kernel_work_group_info, clGetKernelWorkGroupInfo);
  GPURUN_CL_BIND(set_kernel_arg, clSetKernelArg);
  GPURUN_CL_BIND(release_kernel, clReleaseKernel);
  GPURUN_CL_BIND(enqueue_nd_range_kernel, clEnqueueNDRangeKernel);
  GPURUN_CL_BIND(enqueue_marker_with_wait_list, clEnqueueMarkerWithWaitList);
  GPURUN_CL_BIND(flush, clFlush);
  GPURUN_CL_BIND(finish, clFinish);
  GPURUN_CL_BIND(wait_for_events, clWaitForEvents);
  GPURUN_CL_BIND(get_event_info, clGetEventInfo);
  GPURUN_CL_BIND(get_event_profiling_info, clGetEventProfilingInfo);
  GPURUN_CL_BIND(release_event, clReleaseEvent);
#undef GPURUN_CL_BIND
  return nullptr;
}

Library load_library() {
  Library lib;
  std::vector<std::string> candidates;
  if (const char* named = std::getenv("GPURUN_OPENCL_LIBRARY"); named != nullptr && *named != '\0')
    candidates.emplace_back(named);
  else
    candidates = {"libOpenCL.so.1", "libOpenCL.so"};
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    lib.error = fmt::format("{} not found (Debian: apt-get install ocl-icd-libopencl1 and a "
                            "platform such as pocl-opencl-icd): {}",
                            candidates.front(), opened.error);
    return lib;
  }
  const std::string file = dl::file_of(opened.handle.get());
  const std::string where = file.empty() ? opened.path : file;
  if (const char* missing = bind_api(opened.handle.get(), lib.api)) {
    lib.error = fmt::format("{} lacks {}: not an OpenCL 1.2 library gpurun can use", where, missing);
    lib.api = Api{};
    return lib;
  }
  lib.handle = std::move(opened.handle);
  lib.path = where;
  return lib;
}

} // namespace

const Library& library() {
  static const Library lib = load_library();
  return lib;
}

} // namespace gpurun::opencl
