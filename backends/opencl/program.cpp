#include "backends/opencl/program.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "backends/kit/fd_capture.hpp"
#include "backends/opencl/error.hpp"
#include "backends/opencl/info.hpp"
#include "base/error.hpp"

namespace gpurun::opencl {
namespace {

constexpr std::string_view k_magic = "gpurun opencl program 1\n";

// A compile's container: the magic line, "options: …", "kind: binary|source", a blank line, the
// payload.
std::vector<std::byte> pack(const std::string& options, bool is_binary,
                            std::span<const std::byte> payload) {
  const std::string head = fmt::format("{}options: {}\nkind: {}\n\n", k_magic, options,
                                       is_binary ? "binary" : "source");
  std::vector<std::byte> out(head.size() + payload.size());
  std::memcpy(out.data(), head.data(), head.size());
  if (!payload.empty())
    std::memcpy(out.data() + head.size(), payload.data(), payload.size());
  return out;
}

struct Unpacked {
  std::string options;
  bool is_binary = false;
  std::span<const std::byte> payload;
};

Unpacked unpack(std::span<const std::byte> bytes) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto end = text.find("\n\n");
  if (!text.starts_with(k_magic) || end == std::string_view::npos)
    throw Error(ExitCode::device, "an OpenCL program in the compile cache is not one gpurun made; "
                                  "clear it with `gpurun cache clear`");
  Unpacked u;
  std::string_view head = text.substr(k_magic.size(), end - k_magic.size());
  while (!head.empty()) {
    const auto nl = head.find('\n');
    const std::string_view line = head.substr(0, nl);
    if (line.starts_with("options: "))
      u.options = std::string(line.substr(9));
    else if (line == "kind: binary")
      u.is_binary = true;
    head = nl == std::string_view::npos ? std::string_view{} : head.substr(nl + 1);
  }
  u.payload = bytes.subspan(end + 2);
  return u;
}

// A folder for -I. clBuildProgram's options are split at spaces, and platforms differ in whether
// quotes keep a word together (PoCL refuses any option with a space): a folder with a space is
// given relative to the working directory where that has none, else in double quotes.
std::string include_dir(const std::filesystem::path& dir) {
  std::string text = dir.string();
  if (text.find(' ') == std::string::npos)
    return text;
  std::error_code error;
  const std::string relative = std::filesystem::relative(dir, error).string();
  if (!error && !relative.empty() && relative.find(' ') == std::string::npos)
    return relative;
  return "\"" + text + "\"";
}

std::string opencl_std(const std::string& version) {
  static constexpr std::string_view known[] = {"CL1.0", "CL1.1", "CL1.2",    "CL2.0",
                                               "CL3.0", "CLC++", "CLC++1.0", "CLC++2021"};
  std::string upper = version;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (std::string_view k : known)
    if (upper == k)
      return std::string(k);
  throw usage_error(fmt::format("--std {}: OpenCL C is built as CL1.0, CL1.1, CL1.2, CL2.0, CL3.0 "
                                "or CLC++ (e.g. --std CL3.0)",
                                version));
}

cl_program build_from(ContextState& state, const Unpacked& u, cl_int& status,
                      std::string& printed) {
  const Api& api = state.api;
  cl_program program = nullptr;
  if (u.is_binary) {
    const std::size_t size = u.payload.size();
    const auto* data = reinterpret_cast<const unsigned char*>(u.payload.data());
    cl_int binary_status = CL_SUCCESS;
    program = api.create_program_with_binary(state.context, 1, &state.device, &size, &data,
                                             &binary_status, &status);
  } else {
    const char* text = reinterpret_cast<const char*>(u.payload.data());
    const std::size_t size = u.payload.size();
    program = api.create_program_with_source(state.context, 1, &text, &size, &status);
  }
  if (status != CL_SUCCESS)
    return nullptr;
  // A platform's compiler may also print its diagnostics ("1 error generated.") to the
  // process's standard error; they belong to the build log.
  std::optional<kit::FdCapture> stderr_capture;
  try {
    stderr_capture.emplace(2);
  } catch (const Error&) {
  }
  status = api.build_program(program, 1, &state.device, u.options.c_str(), nullptr, nullptr);
  if (stderr_capture)
    printed = stderr_capture->finish();
  return program;
}

std::string build_log(const ContextState& state, cl_program program) {
  return info_string(
      [&](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
        return state.api.get_program_build_info(program, state.device, param, size, value, ret);
      },
      CL_PROGRAM_BUILD_LOG);
}

} // namespace

std::string build_options(const KernelSource& source, const CompileOptions& options) {
  if (!options.arch.empty())
    throw usage_error(fmt::format("--arch {}: OpenCL C is built for the device it runs on; "
                                  "choose the device with --device",
                                  options.arch));
  std::vector<std::string> words{"-cl-kernel-arg-info"};
  if (!source.path.empty() && source.path.has_parent_path())
    words.push_back("-I" + include_dir(source.path.parent_path()));
  for (const auto& dir : options.include_dirs)
    words.push_back("-I" + include_dir(dir));
  for (const auto& define : options.defines)
    words.push_back("-D" + define);
  if (!options.std_version.empty())
    words.push_back("-cl-std=" + opencl_std(options.std_version));
  for (const auto& extra : options.extra)
    words.push_back(extra);
  return fmt::format("{}", fmt::join(words, " "));
}

std::string readable_log(std::string log, const std::string& path) {
  // PoCL builds a copy in its cache ("/root/.cache/pocl/kcache/tempfile_wIDOwT.cl:3:10: …");
  // Clang-based platforms say "<source>", NVIDIA's "<kernel>": each is the file the user gave.
  static const std::regex source_name(R"((^|[\s'"])(<source>|<kernel>|<stdin>|input\.cl|[^\s:'"]*\.cl)(:\d+))");
  log = std::regex_replace(log, source_name, "$1" + path + "$3");
  while (!log.empty() && (log.back() == '\n' || log.back() == ' ' || log.back() == '\0'))
    log.pop_back();
  return log;
}

CompileResult compile_program(ContextState& state, const KernelSource& source,
                              const CompileOptions& options) {
  CompileResult result;
  // "OpenCL 3.0 PoCL 3.1+debian", "OpenCL 3.0 CUDA 13.0.88": the platform version's first words.
  std::istringstream words(info_string(platform_info(state.api, state.platform), CL_PLATFORM_VERSION));
  std::vector<std::string> first;
  for (std::string w; first.size() < 4 && words >> w;)
    first.push_back(w);
  result.compiler_version = fmt::format("{}", fmt::join(first, " "));
  result.target = info_string(device_info(state.api, state.device), CL_DEVICE_NAME);
  result.binary_format = "opencl";
  const std::string opts = build_options(source, options);
  Unpacked from_source{opts, false,
                       std::span(reinterpret_cast<const std::byte*>(source.text.data()),
                                 source.text.size())};
  cl_int status = CL_SUCCESS;
  std::string printed;
  cl_program program = build_from(state, from_source, status, printed);
  const std::string path = source.path.empty() ? std::string("kernel.cl") : source.path.string();
  if (program == nullptr) {
    result.log = fmt::format("clCreateProgramWithSource failed: {}", status_name(status));
    return result;
  }
  std::string log = build_log(state, program);
  if (status != CL_SUCCESS && !printed.empty() && log.find(printed) == std::string::npos)
    log = printed + log;
  log = readable_log(log, path);
  if (status != CL_SUCCESS) {
    state.api.release_program(program);
    result.log = log.empty() ? fmt::format("clBuildProgram failed: {}", status_name(status)) : log;
    return result;
  }
  result.ok = true;
  result.log = log;
  // The platform's binary, where it gives one; else the source, built again at load.
  std::size_t size = 0;
  std::vector<std::byte> binary;
  if (state.api.get_program_info(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) ==
          CL_SUCCESS &&
      size != 0) {
    binary.resize(size);
    unsigned char* where = reinterpret_cast<unsigned char*>(binary.data());
    if (state.api.get_program_info(program, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr) !=
        CL_SUCCESS)
      binary.clear();
  }
  state.api.release_program(program);
  result.binary = binary.empty() ? pack(opts, false, from_source.payload) : pack(opts, true, binary);
  return result;
}

std::string compiler_id(const ContextState& state) {
  const auto platform = platform_info(state.api, state.platform);
  const auto device = device_info(state.api, state.device);
  return fmt::format("{} ({}) on {} (driver {})", info_string(platform, CL_PLATFORM_NAME),
                     info_string(platform, CL_PLATFORM_VERSION), info_string(device, CL_DEVICE_NAME),
                     info_string(device, CL_DRIVER_VERSION));
}

std::size_t type_size(std::string_view type) {
  if (type.find('*') != std::string_view::npos)
    return 8;
  static constexpr std::pair<std::string_view, std::size_t> scalars[] = {
      {"char", 1}, {"uchar", 1}, {"bool", 1},  {"short", 2}, {"ushort", 2},
      {"half", 2}, {"int", 4},   {"uint", 4},  {"float", 4}, {"long", 8},
      {"ulong", 8}, {"double", 8}, {"size_t", 8}, {"ptrdiff_t", 8}, {"intptr_t", 8},
      {"uintptr_t", 8}, {"unsigned char", 1}, {"unsigned short", 2}, {"unsigned int", 4},
      {"unsigned long", 8}};
  for (const auto& [name, size] : scalars) {
    if (type == name)
      return size;
    if (type.starts_with(name)) { // a vector: float4, uchar16; a 3-vector is laid out as a 4
      const std::string_view width = type.substr(name.size());
      for (const auto& [w, n] : {std::pair<std::string_view, std::size_t>{"2", 2}, {"3", 4},
                                 {"4", 4}, {"8", 8}, {"16", 16}})
        if (width == w)
          return size * n;
    }
  }
  return 0;
}

OpenclModule::OpenclModule(std::shared_ptr<ContextState> state, cl_program program)
    : m_state(std::move(state)), m_program(program) {}

OpenclModule::~OpenclModule() {
  m_functions.clear();
  if (!m_state->abandoned)
    m_state->api.release_program(m_program);
}

std::vector<std::string> OpenclModule::kernel_names() const {
  const std::string names = info_string(
      [&](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
        return m_state->api.get_program_info(m_program, param, size, value, ret);
      },
      CL_PROGRAM_KERNEL_NAMES);
  std::vector<std::string> out;
  std::stringstream in(names);
  for (std::string name; std::getline(in, name, ';');)
    if (!name.empty())
      out.push_back(name);
  return out;
}

Function& OpenclModule::function(const std::string& name) {
  if (auto it = m_functions.find(name); it != m_functions.end())
    return *it->second;
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = m_state->api.create_kernel(m_program, name.c_str(), &status);
  if (status == CL_INVALID_KERNEL_NAME || kernel == nullptr) {
    const auto names = kernel_names();
    throw usage_error(fmt::format("--kernel: no kernel '{}' in the program (kernels: {})", name,
                                  names.empty() ? std::string("none")
                                                : fmt::format("{}", fmt::join(names, ", "))));
  }
  GPURUN_CL_CHECK_MSG("clCreateKernel", status, ExitCode::device, "making kernel '{}'", name);
  auto fn = std::make_unique<OpenclFunction>(m_state, kernel, name);
  return *m_functions.emplace(name, std::move(fn)).first->second;
}

std::optional<GlobalSymbol> OpenclModule::global(const std::string& /*name*/) {
  return std::nullopt;
}

std::unique_ptr<Module> load_program(const std::shared_ptr<ContextState>& state,
                                     const CompileResult& compiled) {
  if (compiled.binary_format != "opencl")
    throw usage_error(fmt::format("the opencl backend cannot load a {} module",
                                  compiled.binary_format));
  const Unpacked u = unpack(compiled.binary);
  cl_int status = CL_SUCCESS;
  std::string printed;
  cl_program program = build_from(*state, u, status, printed);
  if (program == nullptr || status != CL_SUCCESS) {
    std::string log = program != nullptr ? build_log(*state, program) : std::string();
    if (program != nullptr)
      state->api.release_program(program);
    throw Error(ExitCode::device,
                fmt::format("loading the OpenCL program failed: {}{}", status_name(status),
                            log.empty() ? "" : ": " + readable_log(log, "kernel.cl")));
  }
  return std::make_unique<OpenclModule>(state, program);
}

OpenclFunction::OpenclFunction(std::shared_ptr<ContextState> state, cl_kernel kernel,
                               std::string name)
    : m_state(std::move(state)), m_kernel(kernel), m_name(std::move(name)) {
  const Api& api = m_state->api;
  const cl_uint count = info_value<cl_uint>(
      [&](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
        return api.get_kernel_info(m_kernel, param, size, value, ret);
      },
      CL_KERNEL_NUM_ARGS);
  for (cl_uint i = 0; i < count; ++i) {
    const auto arg = [&](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
      return api.get_kernel_arg_info(m_kernel, i, param, size, value, ret);
    };
    ParamLayout layout;
    const auto space = info_value<cl_kernel_arg_address_qualifier>(
        arg, CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ADDRESS_PRIVATE);
    const std::string type = info_string(arg, CL_KERNEL_ARG_TYPE_NAME);
    const std::string param_name = info_string(arg, CL_KERNEL_ARG_NAME);
    const auto qualifiers = info_value<cl_kernel_arg_type_qualifier>(arg, CL_KERNEL_ARG_TYPE_QUALIFIER);
    const bool is_local = space == CL_KERNEL_ARG_ADDRESS_LOCAL;
    m_local.push_back(is_local);
    const bool is_pointer = space != CL_KERNEL_ARG_ADDRESS_PRIVATE;
    layout.size = is_pointer ? 8 : type_size(type);
    layout.align = layout.size;
    if (!type.empty()) {
      const char* space_word = space == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? "__global "
                               : space == CL_KERNEL_ARG_ADDRESS_CONSTANT ? "__constant "
                               : is_local                                ? "__local "
                                                                         : "";
      const bool is_const = (qualifiers & CL_KERNEL_ARG_TYPE_CONST) != 0 ||
                            space == CL_KERNEL_ARG_ADDRESS_CONSTANT;
      layout.declaration = fmt::format("{}{}{} {}", space_word, is_const && is_pointer ? "const " : "",
                                       type, param_name.empty() ? fmt::format("p{}", i) : param_name);
    }
    m_params.push_back(layout);
  }
}

OpenclFunction::~OpenclFunction() {
  if (!m_state->abandoned)
    m_state->api.release_kernel(m_kernel);
}

FunctionAttributes OpenclFunction::attributes() const {
  const auto work_group = [&](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
    return m_state->api.get_kernel_work_group_info(m_kernel, m_state->device, param, size, value,
                                                   ret);
  };
  FunctionAttributes a;
  a.static_shared_bytes = info_value<cl_ulong>(work_group, CL_KERNEL_LOCAL_MEM_SIZE);
  a.local_bytes = info_value<cl_ulong>(work_group, CL_KERNEL_PRIVATE_MEM_SIZE);
  a.max_threads_per_block =
      static_cast<int>(info_value<std::size_t>(work_group, CL_KERNEL_WORK_GROUP_SIZE));
  return a;
}

} // namespace gpurun::opencl
