#pragma once
// The OpenCL ICD loader's table, filled by dlsym from libOpenCL.so.1. Types come from the Khronos
// headers (Debian: opencl-c-headers); the library is opened at run time, so one gpurun binary runs
// with or without an OpenCL platform and says what it could not load. The loader dispatches every
// call to the platform (PoCL, a GPU vendor's driver) that made the object it is given.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <string>

#include "backends/kit/dynamic_library.hpp"

namespace gpurun::opencl {

/// The calls gpurun makes (OpenCL 1.2; nothing newer is required of a platform).
struct Api {
  decltype(&::clGetPlatformIDs) get_platform_ids = nullptr;
  decltype(&::clGetPlatformInfo) get_platform_info = nullptr;
  decltype(&::clGetDeviceIDs) get_device_ids = nullptr;
  decltype(&::clGetDeviceInfo) get_device_info = nullptr;
  decltype(&::clCreateContext) create_context = nullptr;
  decltype(&::clReleaseContext) release_context = nullptr;
  decltype(&::clCreateCommandQueue) create_command_queue = nullptr;
  decltype(&::clReleaseCommandQueue) release_command_queue = nullptr;
  decltype(&::clCreateBuffer) create_buffer = nullptr;
  decltype(&::clReleaseMemObject) release_mem_object = nullptr;
  decltype(&::clEnqueueWriteBuffer) enqueue_write_buffer = nullptr;
  decltype(&::clEnqueueReadBuffer) enqueue_read_buffer = nullptr;
  decltype(&::clEnqueueCopyBuffer) enqueue_copy_buffer = nullptr;
  decltype(&::clEnqueueFillBuffer) enqueue_fill_buffer = nullptr;
  decltype(&::clCreateProgramWithSource) create_program_with_source = nullptr;
  decltype(&::clCreateProgramWithBinary) create_program_with_binary = nullptr;
  decltype(&::clBuildProgram) build_program = nullptr;
  decltype(&::clGetProgramInfo) get_program_info = nullptr;
  decltype(&::clGetProgramBuildInfo) get_program_build_info = nullptr;
  decltype(&::clReleaseProgram) release_program = nullptr;
  decltype(&::clCreateKernel) create_kernel = nullptr;
  decltype(&::clGetKernelInfo) get_kernel_info = nullptr;
  decltype(&::clGetKernelArgInfo) get_kernel_arg_info = nullptr;
  decltype(&::clGetKernelWorkGroupInfo) get_kernel_work_group_info = nullptr;
  decltype(&::clSetKernelArg) set_kernel_arg = nullptr;
  decltype(&::clReleaseKernel) release_kernel = nullptr;
  decltype(&::clEnqueueNDRangeKernel) enqueue_nd_range_kernel = nullptr;
  decltype(&::clEnqueueMarkerWithWaitList) enqueue_marker_with_wait_list = nullptr;
  decltype(&::clFlush) flush = nullptr;
  decltype(&::clFinish) finish = nullptr;
  decltype(&::clWaitForEvents) wait_for_events = nullptr;
  decltype(&::clGetEventInfo) get_event_info = nullptr;
  decltype(&::clGetEventProfilingInfo) get_event_profiling_info = nullptr;
  decltype(&::clReleaseEvent) release_event = nullptr;
};

/// The loaded ICD loader: `api` is complete when `error` is empty. Lives for the process.
struct Library {
  dl::LibraryHandle handle;
  Api api;
  std::string path;  ///< the file the loader opened
  std::string error; ///< "libOpenCL.so.1 not found (…)", "… lacks clGetKernelArgInfo"
};

/// Opens and binds the loader on first use (thread-safe). $GPURUN_OPENCL_LIBRARY names another
/// library to open (a vendor's libOpenCL, or a platform's own library without a loader).
[[nodiscard]] const Library& library();

} // namespace gpurun::opencl
