#include "backends/compilers/whole_file.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/device_headers.hpp"
#include "backends/compilers/nvrtc_api.hpp"
#include "backends/compilers/source_scan.hpp"
#include "base/format.hpp"
#include "base/read_file.hpp"

namespace gpurun::compilers {
namespace {

namespace fs = std::filesystem;
using scan::Kind;
using scan::Role;

constexpr int k_max_include_depth = 64;
constexpr std::size_t k_max_text = std::size_t{64} << 20; // read-in headers, in all

// Header names (or their leading folder) of libraries that only the host calls.
constexpr std::array k_host_library_prefixes{
    "cublas",
    "cublasLt",
    "cufft",
    "cusparse",
    "cusolver",
    "nccl",
    "nvtx",
    "nvToolsExt",
    "cudnn",
    "nvml",
    "npp",
    "nvjpeg",
    "cutensor",
    "cufile",
    "nvrtc",
    "nvJitLink",
    "cupti",
    "nvblas",
    "cudaProfiler",
    "cuda_profiler_api",
    "cuda_gl_interop",
    "cuda_egl_interop",
    "cuda_d3d",
    "cuda_vdpau_interop",
    "cudaGL",
    "cudaEGL",
    "thrust/",
    "omp.h",
    "mpi.h",
    // Windowing and graphics APIs: host code only.
    "GL/",
    "GLES",
    "EGL/",
    "KHR/",
    "GLFW/",
    "glad/",
    "glew",
    "glut",
    "freeglut",
    "X11/",
    "windows.h",
    "d3d",
    "dxgi",
    "DirectXMath",
    "vulkan/",
    "helper_gl",
};
// A header's text, read only when it fits what is left of the budget for read-in headers.
std::optional<std::string> read_text(const fs::path& path, std::size_t budget) {
  return read_file(path, nullptr, budget);
}

// A folder that holds the CUDA toolkit's or ROCm's own headers: included from there, a header is
// the compiler's business (it is found through the same -I), never read in and rewritten.
bool is_toolkit_folder(const fs::path& folder) {
  std::error_code ec;
  for (fs::path p = folder; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "cuda_runtime_api.h", ec) || fs::exists(p / "hip" / "hip_runtime.h", ec))
      return true;
    if (p == p.parent_path() || p.filename() == "include")
      break;
  }
  return false;
}

struct Include {
  std::string name;
  bool angled = false;
};

std::optional<Include> parse_include(std::string_view directive) {
  std::size_t i = 1;
  while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t'))
    ++i;
  if (directive.substr(i, 7) != "include")
    return std::nullopt;
  i += 7;
  while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t'))
    ++i;
  if (i >= directive.size())
    return std::nullopt;
  const char open = directive[i];
  const char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
  if (close == '\0')
    return std::nullopt; // #include MACRO: the compiler's preprocessor decides
  const std::size_t end = directive.find(close, i + 1);
  if (end == std::string_view::npos)
    return std::nullopt;
  return Include{std::string(directive.substr(i + 1, end - i - 1)), open == '<'};
}

bool is_pragma_once(std::string_view directive) {
  std::size_t i = 1;
  const auto word = [&](std::string_view w) {
    while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t'))
      ++i;
    if (directive.substr(i, w.size()) != w)
      return false;
    i += w.size();
    return true;
  };
  return word("pragma") && word("once");
}

// The device-side headers a host-library header includes, which code written against it may
// use without including them itself.
std::vector<std::string> companion_headers(std::string_view name) {
  if (name.starts_with("cublas") || name.starts_with("nccl") || name.starts_with("cusparse") ||
      name.starts_with("cusolver") || name.starts_with("cudnn"))
    return {"cuda_fp16.h", "cuda_bf16.h", "cuComplex.h"};
  if (name.starts_with("cufft"))
    return {"cuComplex.h"};
  return {};
}

bool is_pragma(std::string_view directive) {
  std::size_t i = 1;
  while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t'))
    ++i;
  return directive.substr(i, 6) == "pragma";
}

// The data types of a host library that kernels written against it take as parameters
// (cufftComplex …), declared as the library declares them.
std::string library_types(std::string_view name, const HeaderPolicy& headers) {
  if (!name.starts_with("cufft"))
    return {};
  std::string text;
  if (!(headers.provided && headers.provided("cuComplex.h")))
    text += "\ntypedef float2 cuFloatComplex;\ntypedef double2 cuDoubleComplex;"
            "\ntypedef cuFloatComplex cuComplex;";
  return text + "\ntypedef float cufftReal;\ntypedef double cufftDoubleReal;"
                "\ntypedef cuComplex cufftComplex;\ntypedef cuDoubleComplex cufftDoubleComplex;";
}

int newlines(std::string_view s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

/// Reads the file's own headers in, leaves out the ones the device compiler cannot use.
class Includer {
public:
  Includer(const CompileOptions& options, const HeaderPolicy& headers, DeviceSource& out)
      : m_options(options), m_headers(headers), m_out(out) {}

  std::string expand(std::string_view text, const fs::path& folder, const std::string& shown,
                     int depth) {
    std::string result;
    std::size_t copied = 0;
    for (const auto& l : scan::lex(text)) {
      if (l.kind != Kind::directive)
        continue;
      const std::string_view directive = scan::text_of(text, l);
      if (depth > 0 && is_pragma_once(directive)) {
        result.append(text.substr(copied, l.begin - copied));
        result.append(std::string(static_cast<std::size_t>(newlines(directive)), '\n'));
        copied = l.end;
        continue;
      }
      const auto include = parse_include(directive);
      if (!include)
        continue;
      result.append(text.substr(copied, l.begin - copied));
      copied = l.end;
      const int line_after = l.line + newlines(directive) + 1;
      result += replacement(*include, directive, folder, shown, line_after, depth);
    }
    result.append(text.substr(copied));
    return result;
  }

private:
  const CompileOptions& m_options;
  const HeaderPolicy& m_headers;
  DeviceSource& m_out;
  std::vector<fs::path> m_stack;
  std::size_t m_read = 0;
  std::map<fs::path, int> m_once; ///< #pragma once files → their guard's number

  std::optional<fs::path> find(const Include& inc, const fs::path& folder) const {
    std::vector<fs::path> dirs;
    if (!inc.angled)
      dirs.push_back(folder);
    for (const auto& d : m_options.include_dirs)
      dirs.emplace_back(d);
    for (const auto& d : dirs) {
      std::error_code ec;
      const fs::path p = d / inc.name;
      if (fs::is_regular_file(p, ec))
        return p;
    }
    return std::nullopt;
  }

  std::string dropped(const Include& inc, std::string_view directive) {
    if (std::find(m_out.dropped_includes.begin(), m_out.dropped_includes.end(), inc.name) ==
        m_out.dropped_includes.end())
      m_out.dropped_includes.push_back(inc.name);
    m_out.changed = true;
    return fmt::format("/* gpurun: {} left out: not needed for the device */{}", inc.name,
                       std::string(static_cast<std::size_t>(newlines(directive)), '\n'));
  }

  std::string replacement(const Include& inc, std::string_view directive, const fs::path& folder,
                          const std::string& shown, int line_after, int depth) {
    const std::string kept(directive);
    if (is_host_library_header(inc.name)) {
      // What such a header brings along that kernels use (cublas_api.h includes cuda_fp16.h
      // and cuda_bf16.h; llm.c's kernels get __nv_bfloat16 that way) stays.
      std::string companions;
      for (const auto& c : companion_headers(inc.name))
        if (m_headers.provided && m_headers.provided(c))
          companions += fmt::format("\n#include <{}>", c);
      companions += library_types(inc.name, m_headers);
      if (companions.empty())
        return dropped(inc, directive);
      return fmt::format("{}{}\n#line {} {}", dropped(inc, directive), companions, line_after,
                         c_string_literal(shown));
    }
    const auto found = find(inc, folder);
    if (found && !is_toolkit_folder(found->parent_path())) {
      const fs::path canonical = fs::weakly_canonical(*found);
      if (std::find(m_stack.begin(), m_stack.end(), canonical) != m_stack.end() ||
          depth >= k_max_include_depth)
        return "/* gpurun: " + inc.name + " already open */";
      auto text = read_text(*found, k_max_text - m_read);
      if (!text)
        return kept; // the compiler's preprocessor reports it (or the budget is spent)
      m_read += text->size();
      m_out.changed = true;
      const std::string shown_header = found->lexically_normal().string();
      if (std::find(m_out.inlined_headers.begin(), m_out.inlined_headers.end(), shown_header) ==
          m_out.inlined_headers.end())
        m_out.inlined_headers.push_back(shown_header);
      m_stack.push_back(canonical);
      const std::string body = expand(*text, found->parent_path(), shown_header, depth + 1);
      m_stack.pop_back();
      // #pragma once becomes a guard of its own, as the preprocessor would honour it.
      std::string open;
      std::string close;
      const auto lexemes = scan::lex(*text);
      if (std::any_of(lexemes.begin(), lexemes.end(), [&](const auto& l) {
            return l.kind == Kind::directive && is_pragma_once(scan::text_of(*text, l));
          })) {
        auto [it, added] = m_once.emplace(canonical, static_cast<int>(m_once.size()));
        const std::string guard = fmt::format("__GPURUN_ONCE_{}", it->second);
        open = fmt::format("#ifndef {0}\n#define {0}\n", guard);
        close = "#endif\n";
      }
      return fmt::format("\n{}#line 1 {}\n{}\n{}#line {} {}", open, c_string_literal(shown_header),
                         body, close, line_after, c_string_literal(shown));
    }
    if (m_headers.provided && m_headers.provided(inc.name))
      return kept;
    if (found)
      return kept; // a toolkit header through the user's -I
    return dropped(inc, directive);
  }
};

// The first component of a namespace name ("cooperative_groups::details" → "cooperative_groups").
std::string first_component(const std::string& name) {
  return name.substr(0, name.find("::"));
}

// The kernel's plain name: "ns::k<float>" → "k".
std::string plain_name(std::string_view expression) {
  std::string s(expression.substr(0, expression.find('<')));
  if (const auto sep = s.rfind("::"); sep != std::string::npos)
    s = s.substr(sep + 2);
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
  return s;
}

// Identifiers in a name expression's template arguments: k<Op, 4> → Op.
std::vector<std::string> argument_names(std::string_view expression) {
  std::vector<std::string> out;
  const auto open = expression.find('<');
  if (open == std::string_view::npos)
    return out;
  const std::string_view args = expression.substr(open);
  for (const auto& l : scan::lex(args))
    if (l.kind == Kind::identifier)
      out.emplace_back(scan::text_of(args, l));
  return out;
}

// Namespaces whose only source is one toolkit header: a using-directive for one of them goes
// when that header was left out.
const std::map<std::string, std::string, std::less<>>& namespace_headers() {
  static const std::map<std::string, std::string, std::less<>> map = {
      {"cooperative_groups", "cooperative_groups"},
      {"nvcuda", "mma.h"},
      {"cub", "cub/"},
      {"thrust", "thrust/"},
      {"cuda", "cuda/"},
      {"cutlass", "cutlass/"},
      {"cute", "cute/"}};
  return map;
}

// Whether `using namespace X;` names a namespace the device compile has: one the text itself
// opens, or one of a header the compiler provides that was not left out. std's sub-namespaces
// (std::chrono, std::filesystem) are host library; so is a namespace nothing here declares.
bool nominates_available_namespace(const std::string& nominated,
                                   const std::set<std::string>& declared,
                                   const std::vector<std::string>& dropped_includes) {
  std::string name = nominated;
  if (name.starts_with("::"))
    name = name.substr(2);
  const std::string first = first_component(name);
  const std::string last =
      name.substr(name.rfind("::") == std::string::npos ? 0 : name.rfind("::") + 2);
  if (declared.contains(last))
    return true;
  if (name == "std")
    return true;
  const auto it = namespace_headers().find(first);
  if (it == namespace_headers().end() || first == "std")
    return false;
  return std::none_of(dropped_includes.begin(), dropped_includes.end(),
                      [&](const std::string& d) { return d.starts_with(it->second); });
}

bool is_device_role(Role r) {
  return r == Role::kernel || r == Role::device_function || r == Role::device_variable;
}

} // namespace

bool is_host_library_header(std::string_view name) {
  return std::any_of(k_host_library_prefixes.begin(), k_host_library_prefixes.end(),
                     [&](std::string_view prefix) {
                       if (!name.starts_with(prefix))
                         return false;
                       if (prefix.ends_with('/') || prefix.ends_with(".h"))
                         return true;
                       return true; // cublas_v2.h, cublasLt.h, cufftXt.h, nvtx3/…
                     }) ||
         name == "curand.h" || name == "curand_mtgp32_host.h";
}

std::string DeviceSource::summary() const {
  std::vector<std::string> parts;
  const auto count = [&](std::size_t n, std::string_view one, std::string_view many) {
    if (n > 0)
      parts.push_back(fmt::format("{} {}", n, n == 1 ? one : many));
  };
  count(host_functions, "host function", "host functions");
  count(host_variables, "host variable", "host variables");
  count(unused_device, "kernel or device function the kernel does not use",
        "kernels and device functions the kernel does not use");
  std::string text;
  if (!parts.empty())
    text = fmt::format("left out {}", fmt::join(parts, ", "));
  if (!dropped_includes.empty())
    text += fmt::format("{}includes not needed for the device: {}", text.empty() ? "" : "; ",
                        fmt::join(dropped_includes, ", "));
  if (!unread.empty())
    text += fmt::format("{}declarations kept as written ({})", text.empty() ? "" : "; ", unread);
  return text;
}

DeviceSource device_source(const KernelSource& source, const CompileOptions& options,
                           const HeaderPolicy& headers, Pruning pruning) {
  DeviceSource out;
  const std::string shown = source.path.empty() ? std::string("kernel.cu") : source.path.string();
  fs::path folder = source.path.parent_path();
  if (folder.empty())
    folder = ".";
  Includer includer(options, headers, out);
  // -include FILE (--pre-include=FILE): read in before the file's first line, as nvcc does.
  std::string pre;
  for (const auto& e : options.extra)
    if (e.starts_with("--pre-include=") || e.starts_with("-include=")) {
      // nvcc finds it from the working folder first, then through -I.
      fs::path header = e.substr(e.find('=') + 1);
      std::error_code ec;
      if (fs::is_regular_file(header, ec))
        header = fs::absolute(header, ec);
      pre += fmt::format("#include {}\n", c_string_literal(header.string()));
    }
  const std::string text = pre.empty()
                               ? includer.expand(source.text, folder, shown, 0)
                               : includer.expand(fmt::format("{}#line 1 {}\n{}", pre,
                                                             c_string_literal(shown), source.text),
                                                 folder, shown, 0);

  const scan::Structure s = scan::read_structure(text);
  if (!s.ok) {
    out.unread = s.problem;
    out.text = text;
    return out;
  }

  // Which units to keep: the roots, then everything they name, transitively.
  std::map<std::string, std::vector<std::size_t>, std::less<>> declaring;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    for (const auto& n : s.units[i].names)
      declaring[n].push_back(i);
    for (const auto& a : s.units[i].attached)
      declaring[a].push_back(i);
  }
  std::set<std::string> wanted;
  for (const auto& k : options.kernels)
    wanted.insert(plain_name(k));
  for (const auto& e : options.name_expressions)
    wanted.insert(plain_name(e));
  bool found_wanted = false;
  for (const auto& u : s.units)
    if (u.role == Role::kernel)
      for (const auto& n : u.names)
        found_wanted = found_wanted || wanted.contains(n);
  const bool all_kernels = pruning == Pruning::device_code || !found_wanted;

  // NVRTC's -default-device makes functions and variables without an execution space device
  // code: what the kernels need of them stays.
  const bool default_device =
      std::any_of(options.extra.begin(), options.extra.end(), [](const std::string& e) {
        return e == "-default-device" || e == "--default-device";
      });
  std::vector<bool> keep(s.units.size(), false);
  std::vector<std::string> work;
  const auto take = [&](std::size_t i) {
    if (keep[i])
      return;
    keep[i] = true;
    for (const auto& m : s.units[i].mentions)
      work.push_back(m);
  };
  for (const auto& e : options.name_expressions)
    for (auto& n : argument_names(e))
      work.push_back(std::move(n));
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const scan::Unit& u = s.units[i];
    switch (u.role) {
    case Role::kernel:
      if (all_kernels || std::any_of(u.names.begin(), u.names.end(),
                                     [&](const auto& n) { return wanted.contains(n); }))
        take(i);
      break;
    case Role::device_function:
      // Operators are found by the types they take, not by name.
      if (u.is_operator || pruning == Pruning::device_code)
        take(i);
      break;
    case Role::device_variable: // --global sets them by name, used or not
    case Role::unknown:
      take(i);
      break;
    case Role::macro_call:
      // One that expands to device code stays; any other only when what it names is needed.
      if (std::any_of(u.mentions.begin(), u.mentions.end(), [](const std::string& m) {
            return m == "__global__" || m == "__device__" || m == "__constant__" ||
                   m == "__shared__" || m == "__managed__";
          }))
        take(i);
      break;
    case Role::using_namespace:
      if (nominates_available_namespace(u.nominated, s.namespaces, out.dropped_includes))
        take(i);
      break;
    default:
      break;
    }
  }
  std::set<std::string> seen;
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    if (!seen.insert(name).second)
      continue;
    const auto it = declaring.find(name);
    if (it == declaring.end())
      continue;
    for (const std::size_t i : it->second) {
      const Role r = s.units[i].role;
      if (default_device || (r != Role::host_function && r != Role::host_variable))
        take(i);
    }
  }
  // A static_assert stays when everything it names is kept or declared elsewhere.
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].role != Role::static_assertion)
      continue;
    keep[i] = std::all_of(
        s.units[i].mentions.begin(), s.units[i].mentions.end(), [&](const std::string& m) {
          const auto it = declaring.find(m);
          return it == declaring.end() || std::any_of(it->second.begin(), it->second.end(),
                                                      [&](std::size_t k) { return keep[k]; });
        });
  }

  // The text with the units left out blanked, their lines and directives kept.
  std::string result;
  result.reserve(text.size());
  std::size_t copied = 0;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const scan::Unit& u = s.units[i];
    if (keep[i])
      continue;
    switch (u.role) {
    case Role::host_function:
      ++out.host_functions;
      break;
    case Role::host_variable:
      ++out.host_variables;
      break;
    default:
      if (is_device_role(u.role))
        ++out.unused_device;
      else
        ++out.unused_other;
      break;
    }
    out.changed = true;
    const std::size_t begin = s.lexemes[u.first].begin;
    const std::size_t end = s.lexemes[u.last - 1].end;
    result.append(text, copied, begin - copied);
    std::size_t at = begin;
    for (std::size_t k = u.first; k < u.last; ++k) {
      const scan::Lexeme& l = s.lexemes[k];
      // The preprocessor's own directives stay (an #if may open here and close elsewhere); a
      // #pragma inside left-out code would stand alone at namespace scope.
      if (l.kind != Kind::directive || is_pragma(scan::text_of(text, l)))
        continue;
      result.append(
          static_cast<std::size_t>(newlines(std::string_view(text).substr(at, l.begin - at))),
          '\n');
      result.append(text, l.begin, l.end - l.begin);
      at = l.end;
    }
    result.append(static_cast<std::size_t>(newlines(std::string_view(text).substr(at, end - at))),
                  '\n');
    copied = end;
  }
  result.append(text, copied, std::string::npos);
  out.text = std::move(result);
  return out;
}

std::string with_own_headers(const KernelSource& source, const CompileOptions& options) {
  DeviceSource scratch;
  const HeaderPolicy everything{[](std::string_view) { return true; }, {}};
  Includer includer(options, everything, scratch);
  fs::path folder = source.path.parent_path();
  if (folder.empty())
    folder = ".";
  const std::string shown = source.path.empty() ? std::string("kernel.cu") : source.path.string();
  return includer.expand(source.text, folder, shown, 0);
}

HeaderPolicy nvrtc_header_policy() {
  std::set<std::string, std::less<>> names;
  for (const auto& h : nvrtc::compat_headers())
    names.insert(h.name);
  std::vector<std::string> dirs = nvrtc::library().include_dirs;
  HeaderPolicy policy;
#ifdef __linux__
  policy.host_macros = {"__linux__=1", "__linux=1", "__unix__=1", "__unix=1", "__gnu_linux__=1"};
#endif
  policy.provided = [names = std::move(names), dirs = std::move(dirs)](std::string_view name) {
    if (names.contains(name))
      return true;
    if (is_host_library_header(name))
      return false;
    std::error_code ec;
    return std::any_of(dirs.begin(), dirs.end(), [&](const std::string& d) {
      return fs::is_regular_file(fs::path(d) / name, ec);
    });
  };
  return policy;
}

HeaderPolicy clang_header_policy() {
  std::set<std::string, std::less<>> names;
  for (const auto& h : clang_layer_headers())
    names.insert(h.name);
  for (const auto& h : nvrtc::compat_headers())
    names.insert(h.name);
  return {[names = std::move(names)](std::string_view name) { return names.contains(name); }};
}

CompileResult compile_device_side(
    const KernelSource& source, const CompileOptions& options, const HeaderPolicy& headers,
    const std::function<CompileResult(const KernelSource&, const CompileOptions&)>& compile) {
  const auto attempt = [&](Pruning pruning, DeviceSource& device) {
    device = device_source(source, options, headers, pruning);
    // What the compiler gets, for a look at what was left out: GPURUN_DEVICE_SOURCE=FILE
    // (FILE.all for the second attempt, every kernel kept).
    if (const char* keep = std::getenv("GPURUN_DEVICE_SOURCE"); keep != nullptr && *keep)
      std::ofstream(std::string(keep) + (pruning == Pruning::device_code ? ".all" : ""),
                    std::ios::binary)
          << device.text;
    KernelSource prepared = source;
    prepared.text = device.text;
    CompileOptions with_macros = options;
    // Pre-included headers are in the text now (device_source()).
    std::erase_if(with_macros.extra, [](const std::string& e) {
      return e.starts_with("--pre-include=") || e.starts_with("-include=");
    });
    if (device.changed)
      with_macros.defines.insert(with_macros.defines.begin(), headers.host_macros.begin(),
                                 headers.host_macros.end());
    CompileResult result = compile(prepared, with_macros);
    result.source_summary = device.summary();
    return result;
  };
  DeviceSource narrow;
  CompileResult result = attempt(Pruning::to_kernels, narrow);
  if (result.ok || narrow.unused_device + narrow.unused_other == 0)
    return result;
  DeviceSource wide;
  CompileResult second = attempt(Pruning::device_code, wide);
  if (second.ok || wide.text == narrow.text)
    return second.ok ? second : result;
  return result;
}

} // namespace gpurun::compilers
