#include "backends/compilers/clang.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>

#include "backends/compilers/clang_locate.hpp"
#include "backends/compilers/clang_names.hpp"
#include "backends/compilers/clang_target.hpp"
#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/compiler_io.hpp"
#include "backends/compilers/device_headers.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/subprocess.hpp"

namespace gpurun::clang_cuda {

using compilers::add_source_arguments;
using compilers::read_output_file;
using compilers::std_argument;
using compilers::write_scratch_file;
namespace {

namespace fs = std::filesystem;

// The functions PTX may leave external: the CUDA runtime's device-side entry points, which the
// driver (and gpurun's emulator, for vprintf) provide.
const std::set<std::string> runtime_functions = {"vprintf", "malloc", "free", "__assertfail"};

constexpr const char* header_folder_in_line_tables = "/gpurun-clang-headers";

// The clang layer first; the NVRTC stand-ins for what it does not replace (stdint.h, limits.h …
// and the shared C++ headers) are plain declarations that clang compiles as well.
void write_headers(const fs::path& folder) {
  fs::create_directories(folder);
  std::set<std::string> written;
  for (const auto& h : compilers::clang_layer_headers()) {
    write_scratch_file(folder / h.name, h.text, "clang");
    written.insert(h.name);
  }
  for (const auto& h : nvrtc::compat_headers())
    if (written.insert(h.name).second)
      write_scratch_file(folder / h.name, h.text, "clang");
}

bool unsupported_arch(const std::string& log) {
  return log.find("unsupported CUDA gpu architecture") != std::string::npos;
}

// External functions the PTX calls that nothing will provide: a function declared in the source
// but defined nowhere, or a math function when libclc is missing.
std::vector<std::string> unresolved_functions(const std::string& ptx) {
  std::vector<std::string> out;
  std::istringstream lines(ptx);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with(".extern .func"))
      continue;
    // ".extern .func  (.param .b32 func_retval0) vprintf" or ".extern .func name(": a return
    // value's declaration comes before the name.
    std::string_view rest = std::string_view(line).substr(13);
    rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
    if (rest.starts_with("(")) {
      rest.remove_prefix(std::min(rest.size(), rest.find(')') + 1));
      rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t")));
    }
    const std::string name(rest.substr(0, rest.find_first_of(" \t(;")));
    if (name.empty())
      continue;
    if (!runtime_functions.contains(name))
      out.push_back(name);
  }
  return out;
}

std::string describe_unresolved(const std::vector<std::string>& names, const std::string& path) {
  const auto& inst = installation();
  std::vector<std::string> shown;
  for (const auto& n : names) {
    const auto demangled = demangled_function_name(n);
    shown.push_back(demangled ? fmt::format("{} ({})", *demangled, n) : n);
  }
  std::string text = fmt::format("{}: error: no definition of the device function{} {}", path,
                                 names.size() == 1 ? "" : "s", fmt::join(shown, ", "));
  if (inst.libclc.empty())
    text += fmt::format("; the math library comes from libclc: {}", inst.libclc_reason);
  return text + "\n";
}

} // namespace

const compilers::Availability& probe() {
  return installation().availability;
}

namespace {

/// An option in NVRTC's spelling (what --opt and nvcc's spellings give) as clang spells it.
/// Options that only steer ptxas (a register limit, -v) mean nothing for the PTX clang writes and
/// are dropped; an option clang has no word for passes through as written.
void add_option_for_clang(std::vector<std::string>& args, const std::string& option) {
  const auto value_of = [&option](std::string_view name) -> std::optional<std::string_view> {
    if (!option.starts_with(name) || option.size() <= name.size() || option[name.size()] != '=')
      return std::nullopt;
    return std::string_view(option).substr(name.size() + 1);
  };
  const auto add = [&args](std::initializer_list<const char*> list) {
    for (const char* a : list)
      args.emplace_back(a);
  };
  if (option == "--use_fast_math" || option == "-use_fast_math") {
    add({"-ffast-math", "-fcuda-flush-denormals-to-zero", "-fcuda-approx-transcendentals", "-mllvm",
         "-nvptx-prec-divf32=0", "-mllvm", "-nvptx-prec-sqrtf32=0"});
  } else if (const auto ftz = value_of("--ftz")) {
    add({*ftz == "true" ? "-fcuda-flush-denormals-to-zero" : "-fno-cuda-flush-denormals-to-zero"});
  } else if (const auto div = value_of("--prec-div")) {
    add({"-mllvm", *div == "true" ? "-nvptx-prec-divf32=2" : "-nvptx-prec-divf32=1"});
  } else if (const auto sqrt = value_of("--prec-sqrt")) {
    add({"-mllvm", *sqrt == "true" ? "-nvptx-prec-sqrtf32=1" : "-nvptx-prec-sqrtf32=0"});
  } else if (const auto fmad = value_of("--fmad")) {
    add({*fmad == "true" ? "-ffp-contract=fast" : "-ffp-contract=off"});
  } else if (option == "--device-debug" || option == "-G") {
    add({"-g"});
  } else if (const auto rdc = value_of("--relocatable-device-code")) {
    if (*rdc == "true")
      add({"-fgpu-rdc"});
  } else if (option == "--expt-relaxed-constexpr" || option == "--extended-lambda") {
    // clang's CUDA mode calls constexpr functions from device code and takes extended
    // lambdas without being asked.
  } else if (value_of("--maxrregcount") || value_of("--ptxas-options") ||
             option.starts_with("-Xptxas")) {
    // ptxas's options: the driver's JIT (or the emulator) takes clang's PTX as it is.
  } else {
    args.push_back(option);
  }
}

// --fmad=false (nvcc's -fmad=false): no multiply-add is fused anywhere.
bool fmad_off(const CompileOptions& options) {
  return std::find(options.extra.begin(), options.extra.end(), "--fmad=false") !=
         options.extra.end();
}

} // namespace

std::vector<std::string> command_line(const KernelSource& source, const CompileOptions& options,
                                      int arch, const std::string& include_dir,
                                      const std::string& no_cuda_dir) {
  const auto& inst = installation();
  std::vector<std::string> args = {
      inst.availability.location,
      "-x",
      "cuda",
      "--cuda-device-only",
      fmt::format("--cuda-gpu-arch=sm_{}", arch),
      "--cuda-path=" + no_cuda_dir,
      "-nocudainc",
      "-nocudalib",
      // The host's C and C++ headers do not compile for the GPU: only gpurun's layer is seen.
      "-nostdinc",
      "-O3",
      "-Xclang",
      "-target-feature",
      "-Xclang",
      fmt::format("+ptx{}", ptx_isa(arch)),
      // Contract a*b+c into fma wherever the kernel's own code allows it (clang marks every
      // CUDA operation contractable, as nvcc's default --fmad=true), but leave libclc's code as
      // it was written: its argument reductions rely on products that are rounded separately,
      // and fusing them (plain -ffp-contract=fast fuses every multiply-add in the module) costs
      // sinf a million ulps near multiples of pi. What is not fused is emitted with .rn, which
      // keeps ptxas (and the emulator) from fusing it later.
      "-Xclang",
      fmad_off(options) ? "-ffp-contract=off" : "-ffp-contract=fast-honor-pragmas",
      // libclc's bitcode says nvptx64-unknown-nvidiacl, the kernel nvptx64-nvidia-cuda: the same
      // target to the back end.
      "-Wno-linker-warnings",
      // The device heap's calls stay calls, as NVRTC leaves them: clang would otherwise drop a
      // malloc whose block is never read, and with it what memcheck and the leak check look at.
      "-fno-builtin-malloc",
      "-fno-builtin-free",
  };
  if (!inst.libclc.empty()) {
    for (const char* a : {"-Xclang", "-mlink-builtin-bitcode", "-Xclang"})
      args.emplace_back(a);
    args.push_back(inst.libclc);
  }
  args.push_back(std_argument(options)); // C++17: clang's own default is C++14
  if (options.line_info)
    args.emplace_back("-gline-tables-only");
  add_source_arguments(args, source, options);
  // After the user's folders, as a system folder (its headers raise no warnings). Line tables
  // name its files by a fixed folder instead of the temporary one.
  args.push_back("-isystem");
  args.push_back(include_dir);
  args.push_back(
      fmt::format("-fdebug-prefix-map={}={}", include_dir, header_folder_in_line_tables));
  args.emplace_back("-include");
  args.emplace_back(nvrtc::implicit_header);
  if (source.language == Language::hip) {
    args.emplace_back("-include");
    args.emplace_back(nvrtc::implicit_hip_header);
  }
  for (const auto& extra : options.extra)
    add_option_for_clang(args, extra);
  return args;
}

CompileResult compile(const KernelSource& source, const CompileOptions& options,
                      const std::string& target) {
  const auto& inst = installation();
  if (!inst.availability.available)
    throw unavailable_error("cannot compile CUDA source with clang: " + inst.availability.reason);
  const auto archs = arch_candidates(target, inst.major);

  std::optional<proc::TempDir> made;
  try {
    made.emplace("gpurun-clang-");
  } catch (const std::exception& e) {
    throw unavailable_error(
        fmt::format("cannot compile with clang: no temporary folder ({})", e.what()));
  }
  const proc::TempDir& temp = *made;
  const fs::path include_dir = temp.path() / "include";
  const fs::path no_cuda_dir = temp.path() / "no-cuda";
  write_headers(include_dir);
  fs::create_directories(no_cuda_dir);

  // The kernel is compiled from a copy whose #line names the original, so that diagnostics and
  // line tables say where the user's file is.
  const std::string shown_path =
      source.path.empty() ? std::string("kernel.cu") : source.path.string();
  const fs::path input =
      temp.path() / (source.path.empty() ? fs::path("kernel.cu") : source.path.filename());
  write_scratch_file(input,
                     fmt::format("#line 1 {}\n{}\n{}", c_string_literal(shown_path), source.text,
                                 instantiation_code(options.name_expressions)),
                     "clang");
  const fs::path output = temp.path() / "kernel.ptx";

  CompileResult result;
  result.compiler_version = "clang " + inst.availability.version;
  for (const int arch : archs) {
    auto args = command_line(source, options, arch, include_dir.string(), no_cuda_dir.string());
    for (const auto& a : {std::string("-S"), std::string("-o"), output.string(), input.string()})
      args.push_back(a);
    const auto done = proc::run(args);
    if (!done.started)
      throw unavailable_error(fmt::format("cannot run clang: {}", done.error));
    result.log = done.output;
    // Paths into the temporary folder mean nothing once it is gone.
    replace_all(result.log, include_dir.string() + "/", "<gpurun clang headers>/");
    replace_all(result.log, temp.path().string() + "/", "");
    if (done.exit_code != 0) {
      if (unsupported_arch(done.output) && arch != archs.back())
        continue; // this clang predates the table's idea of it: try the next older one
      if (result.log.empty())
        result.log =
            fmt::format("clang failed ({})",
                        done.error.empty() ? fmt::format("exit {}", done.exit_code) : done.error);
      return result;
    }
    result.target = fmt::format("compute_{}", arch);
    break;
  }

  const std::string ptx = read_output_file(output);
  if (const auto missing = unresolved_functions(ptx); !missing.empty()) {
    result.log += describe_unresolved(missing, shown_path);
    return result;
  }
  if (!options.name_expressions.empty()) {
    const auto entries = ptx_entry_names(ptx);
    for (const auto& expression : options.name_expressions) {
      const auto lowered = find_lowered_name(expression, entries);
      if (!lowered) {
        result.log += fmt::format("{}: error: no kernel entry for '{}' among {}\n", shown_path,
                                  expression, fmt::join(entries, ", "));
        return result;
      }
      result.lowered_names[expression] = *lowered;
    }
  }
  const auto* bytes = reinterpret_cast<const std::byte*>(ptx.data());
  result.binary.assign(bytes, bytes + ptx.size());
  result.binary_format = "ptx";
  result.ok = true;
  return result;
}

} // namespace gpurun::clang_cuda
