// Runs the emulator micro-benchmark kernels (bench/micro/emulator_bench.cpp) three or four ways in
// one process, one thread each: the CPU backend's emulator, the compiled prototype (shared objects
// made from the same PTX by ptx2cpp.py and clang), and, when built with OpenCL, the same kernels in
// OpenCL C on PoCL. First every way runs once on irregular inputs and the outputs must equal the
// emulator's bit for bit; then the ways take turns, repetition by repetition, on the benchmark's
// inputs, so a machine shared with other work slows them alike. Prints one JSON object a line.
//
// Usage: driver FIXTURE_DIR SO_DIR REPETITIONS [KERNELS.cl]
// SO_DIR holds KERNEL.so (vectorized) and KERNEL.scalar.so (clang's vectorizers off) per kernel.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cpu/backend.hpp"

#ifdef GPURUN_COMPILED_WITH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

namespace {

using clock_type = std::chrono::steady_clock;
using grid_fn = void (*)(const void* const*, const unsigned*, const unsigned*, unsigned);

// One launch of the micro-benchmark: buffers of floats (the last `outputs` are results) and one
// 32-bit scalar, as emulator_bench.cpp sets them up.
struct Case {
  std::string kernel;
  std::vector<std::size_t> buffer_floats;
  std::vector<float> buffer_values; // the benchmark's fill of each buffer
  std::size_t outputs = 1;
  std::uint32_t scalar = 0;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes = 0;
};

std::vector<Case> cases() {
  const std::uint32_t add_n = 1u << 20;
  const std::uint32_t mm_n = 128;
  const std::uint32_t red_n = 1u << 18;
  return {
      {"vector_add",
       {add_n, add_n, add_n},
       {1.0f, 2.0f, 0.0f},
       1,
       add_n,
       {add_n / 256, 1, 1},
       {256, 1, 1},
       0},
      {"matmul_tiled",
       {mm_n * mm_n, mm_n * mm_n, mm_n * mm_n},
       {1.0f, 0.5f, 0.0f},
       1,
       mm_n,
       {mm_n / 16, mm_n / 16, 1},
       {16, 16, 1},
       0},
      {"reduce_block",
       {red_n, red_n / 256},
       {1.0f, 0.0f},
       1,
       red_n,
       {red_n / 256, 1, 1},
       {256, 1, 1},
       256 * sizeof(float)},
  };
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Inputs whose sums round, so that a different order of operations would show in the bits.
std::vector<std::vector<float>> irregular_inputs(const Case& c) {
  std::vector<std::vector<float>> out;
  for (std::size_t b = 0; b < c.buffer_floats.size(); ++b) {
    std::vector<float> v(c.buffer_floats[b]);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::uint32_t h = static_cast<std::uint32_t>((i + 7919 * b) * 2654435761u);
      v[i] = static_cast<float>(h >> 9) / 8388608.0f * 3.0f - 1.25f;
    }
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<std::vector<float>> benchmark_inputs(const Case& c) {
  std::vector<std::vector<float>> out;
  for (std::size_t b = 0; b < c.buffer_floats.size(); ++b)
    out.emplace_back(c.buffer_floats[b], c.buffer_values[b]);
  return out;
}

// A way of running the kernels: set the inputs, launch once, read the outputs.
class Runner {
public:
  virtual ~Runner() = default;
  virtual void set_inputs(const std::vector<std::vector<float>>& buffers) = 0;
  virtual void launch() = 0;
  [[nodiscard]] virtual std::vector<float> output(std::size_t buffer) = 0;
};

// Counting instructions (the backend's `stats`) is only for the launch whose count is reported.
enum class Counting { off, on };

class EmulatorRunner : public Runner {
public:
  EmulatorRunner(gpurun::Backend& backend, const std::string& ptx_path, const Case& c,
                 Counting counting, const char* engine = "interpret")
      : m_case(c) {
    gpurun::ContextOptions options;
    options.settings.host_threads = 1;
    options.settings.stats = counting == Counting::on;
    options.settings.cpu_engine = engine;
    m_context = backend.devices()[0]->create_context(options);
    gpurun::KernelSource src{read_text(ptx_path), ptx_path, gpurun::Language::ptx};
    m_module = m_context->load(m_context->compile(src, {}));
    for (std::size_t floats : c.buffer_floats) {
      m_buffers.push_back(m_context->allocate(floats * sizeof(float)));
      m_args.add_buffer(*m_buffers.back());
    }
    std::vector<std::byte> bytes(sizeof c.scalar);
    std::memcpy(bytes.data(), &c.scalar, sizeof c.scalar);
    m_args.add_bytes(std::move(bytes));
  }
  void set_inputs(const std::vector<std::vector<float>>& buffers) override {
    for (std::size_t b = 0; b < buffers.size(); ++b)
      m_context->copy_to_device(*m_buffers[b], std::as_bytes(std::span(buffers[b])));
  }
  void launch() override {
    const gpurun::LaunchConfig config{{m_case.grid[0], m_case.grid[1], m_case.grid[2]},
                                      {m_case.block[0], m_case.block[1], m_case.block[2]},
                                      m_case.shared_bytes};
    m_context->launch(m_module->function(m_case.kernel), config, m_args);
    m_context->synchronize();
  }
  [[nodiscard]] std::vector<float> output(std::size_t buffer) override {
    std::vector<float> out(m_case.buffer_floats[buffer]);
    m_context->copy_to_host(std::as_writable_bytes(std::span(out)), *m_buffers[buffer]);
    return out;
  }
  [[nodiscard]] double lane_instructions() const {
    return m_context->last_launch_stats().at("lane_instructions");
  }

private:
  Case m_case;
  std::unique_ptr<gpurun::Context> m_context;
  std::unique_ptr<gpurun::Module> m_module;
  std::vector<std::unique_ptr<gpurun::Buffer>> m_buffers;
  gpurun::ArgPack m_args;
};

struct dl_closer {
  void operator()(void* handle) const { dlclose(handle); }
};

class CompiledRunner : public Runner {
public:
  CompiledRunner(const std::string& so_path, const Case& c)
      : m_case(c), m_library(dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!m_library)
      throw std::runtime_error(dlerror());
    m_grid = reinterpret_cast<grid_fn>(dlsym(m_library.get(), "gpurun_compiled_grid"));
    if (!m_grid)
      throw std::runtime_error(so_path + ": no gpurun_compiled_grid");
    for (std::size_t floats : c.buffer_floats)
      m_buffers.emplace_back(floats);
  }
  void set_inputs(const std::vector<std::vector<float>>& buffers) override {
    for (std::size_t b = 0; b < buffers.size(); ++b)
      m_buffers[b] = buffers[b];
  }
  void launch() override {
    std::vector<std::uint64_t> addresses;
    for (auto& b : m_buffers)
      addresses.push_back(reinterpret_cast<std::uint64_t>(b.data()));
    std::vector<const void*> args;
    for (auto& a : addresses)
      args.push_back(&a);
    args.push_back(&m_case.scalar);
    m_grid(args.data(), m_case.grid, m_case.block, m_case.shared_bytes);
  }
  [[nodiscard]] std::vector<float> output(std::size_t buffer) override { return m_buffers[buffer]; }

private:
  Case m_case;
  std::unique_ptr<void, dl_closer> m_library;
  grid_fn m_grid = nullptr;
  std::vector<std::vector<float>> m_buffers;
};

#ifdef GPURUN_COMPILED_WITH_OPENCL
void cl_check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: " + std::to_string(status));
}

// PoCL's CPU device, found by platform name so that another ICD installed later is not taken.
class OpenclRunner : public Runner {
public:
  OpenclRunner(const std::string& cl_path, const Case& c) : m_case(c) {
    cl_uint count = 0;
    cl_check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(count);
    cl_check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
    cl_platform_id pocl = nullptr;
    for (auto p : platforms) {
      char name[256] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::string(name).find("Portable Computing Language") != std::string::npos)
        pocl = p;
    }
    if (!pocl)
      throw std::runtime_error("PoCL platform not found");
    cl_check(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_CPU, 1, &m_device, nullptr), "clGetDeviceIDs");
    cl_int status = 0;
    m_context = clCreateContext(nullptr, 1, &m_device, nullptr, nullptr, &status);
    cl_check(status, "clCreateContext");
    m_queue = clCreateCommandQueue(m_context, m_device, 0, &status);
    cl_check(status, "clCreateCommandQueue");
    const std::string text = read_text(cl_path);
    const char* src = text.c_str();
    m_program = clCreateProgramWithSource(m_context, 1, &src, nullptr, &status);
    cl_check(status, "clCreateProgramWithSource");
    const auto start = clock_type::now();
    cl_check(clBuildProgram(m_program, 1, &m_device, "", nullptr, nullptr), "clBuildProgram");
    m_kernel = clCreateKernel(m_program, c.kernel.c_str(), &status);
    cl_check(status, "clCreateKernel");
    m_build_seconds = std::chrono::duration<double>(clock_type::now() - start).count();
    for (std::size_t floats : c.buffer_floats) {
      m_buffers.push_back(
          clCreateBuffer(m_context, CL_MEM_READ_WRITE, floats * sizeof(float), nullptr, &status));
      cl_check(status, "clCreateBuffer");
    }
    cl_uint arg = 0;
    for (auto& b : m_buffers)
      cl_check(clSetKernelArg(m_kernel, arg++, sizeof(cl_mem), &b), "clSetKernelArg");
    cl_check(clSetKernelArg(m_kernel, arg++, sizeof c.scalar, &c.scalar), "clSetKernelArg");
    if (c.shared_bytes)
      cl_check(clSetKernelArg(m_kernel, arg++, c.shared_bytes, nullptr), "clSetKernelArg");
  }
  ~OpenclRunner() override {
    for (auto b : m_buffers)
      clReleaseMemObject(b);
    clReleaseKernel(m_kernel);
    clReleaseProgram(m_program);
    clReleaseCommandQueue(m_queue);
    clReleaseContext(m_context);
  }
  void set_inputs(const std::vector<std::vector<float>>& buffers) override {
    for (std::size_t b = 0; b < buffers.size(); ++b)
      cl_check(clEnqueueWriteBuffer(m_queue, m_buffers[b], CL_TRUE, 0,
                                    buffers[b].size() * sizeof(float), buffers[b].data(), 0,
                                    nullptr, nullptr),
               "clEnqueueWriteBuffer");
  }
  void launch() override {
    std::size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      local[d] = m_case.block[d];
      global[d] = static_cast<std::size_t>(m_case.grid[d]) * m_case.block[d];
    }
    cl_check(
        clEnqueueNDRangeKernel(m_queue, m_kernel, 3, nullptr, global, local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
    cl_check(clFinish(m_queue), "clFinish");
  }
  [[nodiscard]] std::vector<float> output(std::size_t buffer) override {
    std::vector<float> out(m_case.buffer_floats[buffer]);
    cl_check(clEnqueueReadBuffer(m_queue, m_buffers[buffer], CL_TRUE, 0, out.size() * sizeof(float),
                                 out.data(), 0, nullptr, nullptr),
             "clEnqueueReadBuffer");
    return out;
  }
  [[nodiscard]] double build_seconds() const { return m_build_seconds; }

private:
  Case m_case;
  cl_device_id m_device = nullptr;
  cl_context m_context = nullptr;
  cl_command_queue m_queue = nullptr;
  cl_program m_program = nullptr;
  cl_kernel m_kernel = nullptr;
  std::vector<cl_mem> m_buffers;
  double m_build_seconds = 0;
};
#endif

// Milliseconds per launch: launches repeated until `min_seconds` passed, so that a fast way is
// not timed on one launch of a few microseconds.
double time_launches(Runner& runner, double min_seconds) {
  int launches = 0;
  const auto start = clock_type::now();
  double elapsed = 0;
  do {
    runner.launch();
    ++launches;
    elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
  } while (elapsed < min_seconds);
  return elapsed * 1000.0 / launches;
}

// Number of outputs whose bits differ from the emulator's.
std::size_t bit_differences(const std::vector<float>& a, const std::vector<float>& b) {
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    differ += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
  return differ + (a.size() != b.size());
}

struct Way {
  std::string name;
  std::unique_ptr<Runner> runner;
};

} // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FIXTURE_DIR SO_DIR REPETITIONS [KERNELS.cl]\n", argv[0]);
    return 2;
  }
  const std::string fixtures = argv[1];
  const std::string so_dir = argv[2];
  const int repetitions = std::stoi(argv[3]);
  const std::string cl_path = argc > 4 ? argv[4] : "";
  const double min_seconds = 0.15;
  try {
    auto backend = gpurun::make_cpu_backend();
    for (const Case& c : cases()) {
      const std::string ptx = fixtures + "/" + c.kernel + ".ptx";
      EmulatorRunner counter(*backend, ptx, c, Counting::on);
      counter.set_inputs(benchmark_inputs(c));
      counter.launch();
      std::printf("{\"kernel\": \"%s\", \"lane_instructions\": %.0f}\n", c.kernel.c_str(),
                  counter.lane_instructions());

      std::vector<Way> ways;
      ways.push_back(
          {"emulator", std::make_unique<EmulatorRunner>(*backend, ptx, c, Counting::off)});
      // The CPU backend's compiled engine (docs/compiled-engine.md): the same PTX, through the
      // backend, as a user's run gets it.
      ways.push_back({"engine", std::make_unique<EmulatorRunner>(*backend, ptx, c, Counting::off,
                                                                 "compiled")});
      ways.push_back(
          {"compiled", std::make_unique<CompiledRunner>(so_dir + "/" + c.kernel + ".so", c)});
      ways.push_back({"compiled_scalar",
                      std::make_unique<CompiledRunner>(so_dir + "/" + c.kernel + ".scalar.so", c)});
#ifdef GPURUN_COMPILED_WITH_OPENCL
      if (!cl_path.empty()) {
        auto runner = std::make_unique<OpenclRunner>(cl_path, c);
        std::printf("{\"kernel\": \"%s\", \"pocl_build_seconds\": %.4f}\n", c.kernel.c_str(),
                    runner->build_seconds());
        ways.push_back({"pocl", std::move(runner)});
      }
#endif
      // Bit-exact check on irregular inputs, then on the benchmark's own. The first launch is
      // timed apart: PoCL compiles a work-group function for the local size there.
      bool first = true;
      for (auto inputs : {irregular_inputs(c), benchmark_inputs(c)}) {
        std::vector<std::vector<float>> reference;
        for (auto& way : ways) {
          way.runner->set_inputs(inputs);
          const auto start = clock_type::now();
          way.runner->launch();
          if (first)
            std::printf(
                "{\"kernel\": \"%s\", \"way\": \"%s\", \"first_launch_ms\": %.3f}\n",
                c.kernel.c_str(), way.name.c_str(),
                std::chrono::duration<double, std::milli>(clock_type::now() - start).count());
          std::size_t differ = 0;
          for (std::size_t o = 0; o < c.outputs; ++o) {
            const std::size_t index = c.buffer_floats.size() - c.outputs + o;
            auto out = way.runner->output(index);
            if (reference.size() <= o)
              reference.push_back(out);
            else
              differ += bit_differences(reference[o], out);
          }
          std::printf("{\"kernel\": \"%s\", \"way\": \"%s\", \"outputs_differing\": %zu}\n",
                      c.kernel.c_str(), way.name.c_str(), differ);
          if (differ)
            return 1;
        }
        first = false;
      }
      for (int rep = 0; rep < repetitions; ++rep)
        for (auto& way : ways) {
          const double ms = time_launches(*way.runner, min_seconds);
          std::printf("{\"kernel\": \"%s\", \"way\": \"%s\", \"rep\": %d, \"ms\": %.6f}\n",
                      c.kernel.c_str(), way.name.c_str(), rep, ms);
          std::fflush(stdout);
        }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "driver: %s\n", e.what());
    return 1;
  }
}
