#include "pipeline/run_parameters.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "base/arithmetic.hpp"
#include "base/error.hpp"
#include "pipeline/spec.hpp"

namespace gpurun {
namespace fs = std::filesystem;

namespace {

// How a value lands in a field of its type.
void assign(std::string& field, ParameterValue&& v) {
  field = std::get<std::string>(std::move(v));
}
void assign(std::optional<std::string>& field, ParameterValue&& v) {
  field = std::get<std::string>(std::move(v));
}
void assign(fs::path& field, ParameterValue&& v) {
  field = std::get<std::string>(std::move(v));
}
void assign(std::optional<fs::path>& field, ParameterValue&& v) {
  field = std::get<std::string>(std::move(v));
}
void assign(std::optional<Dim3>& field, ParameterValue&& v) {
  field = std::get<Dim3>(v);
}
void assign(std::size_t& field, ParameterValue&& v) {
  field = static_cast<std::size_t>(std::get<long long>(v));
}
void assign(std::optional<std::size_t>& field, ParameterValue&& v) {
  field = static_cast<std::size_t>(std::get<long long>(v));
}
void assign(int& field, ParameterValue&& v) {
  field = static_cast<int>(std::get<long long>(v));
}
void assign(double& field, ParameterValue&& v) {
  field = std::get<double>(v);
}
void assign(std::optional<double>& field, ParameterValue&& v) {
  field = std::get<std::optional<double>>(v);
}
void assign(bool& field, ParameterValue&& v) {
  field = std::get<bool>(v);
}
void assign(std::vector<std::string>& field, ParameterValue&& v) {
  field = std::get<std::vector<std::string>>(std::move(v));
}

// The field a chain of member pointers names: field<&RunRequest::compile, &CompileOptions::arch>.
template <auto First, auto... Rest> constexpr auto& field(auto& object) {
  if constexpr (sizeof...(Rest) == 0)
    return object.*First;
  else
    return field<Rest...>(object.*First);
}

// The table's store functions: `set` replaces the field, `add` appends to a list.
template <auto... Members> void set(RunRequest& r, ParameterValue&& v) {
  assign(field<Members...>(r), std::move(v));
}
template <auto... Members> void add(RunRequest& r, ParameterValue&& v) {
  auto& list = field<Members...>(r);
  auto more = std::get<std::vector<std::string>>(std::move(v));
  list.insert(list.end(), std::make_move_iterator(more.begin()),
              std::make_move_iterator(more.end()));
}
void ignore(RunRequest&, ParameterValue&&) {}
void no_cache(RunRequest& r, ParameterValue&& v) {
  r.use_cache = !std::get<bool>(v);
}

using T = ParameterType;
using R = RunRequest;
using S = DeviceSettings;
using C = CompileOptions;
constexpr unsigned run = static_cast<unsigned>(Command::run);
constexpr unsigned run_bench = Command::run | Command::bench | Command::tune;
constexpr unsigned launch = run_bench | Command::threads;
constexpr unsigned compiling = run_bench | Command::compile;
constexpr unsigned everywhere = launch | Command::compile;

// name, spec key, flags, help, type, commands, backend setting, min, max, store.
const RunParameter k_parameters[] = {
    {"source", "source", "--source",
     "Kernel file in place of the spec's (an edited kernel against a capture's outputs)", T::path,
     run, false, 0, 0, set<&R::source>},
    {"kernel", "kernel", "--kernel,-k", "Kernel name (templates: 'saxpy<float>')", T::text,
     run_bench, false, 0, 0, set<&R::kernel>},
    {"grid", "grid", "--grid,-g", "Grid dimensions X[,Y[,Z]] (OpenCL: global size = grid × block)", T::dims, launch, false, 0, 0,
     set<&R::grid>},
    {"block", "block", "--block,-b", "Block dimensions X[,Y[,Z]] (OpenCL: the local size)", T::dims,
     launch | Command::compile, false, 0, 0,
     set<&R::block>},
    {"shared_bytes", "shared_bytes", "--shared", "Dynamic shared memory in bytes", T::bytes,
     run_bench | Command::compile, false, 0, 0, set<&R::shared_bytes>},
    {"args", "args", "--arg,-a", "Kernel argument, one per parameter in order", T::args, run_bench,
     false, 0, 0, set<&R::args>},
    {"globals", "globals", "--global", "Fill a __device__/__constant__ variable: NAME=SPEC",
     T::globals, run_bench, false, 0, 0, set<&R::globals>},
    {"memory", "memory", "--memory",
     "A device buffer no parameter takes, for pointers (&NAME+OFFSET) to reach: NAME=SPEC",
     T::globals, run_bench, false, 0, 0, set<&R::memory>},
    {"defines", "compile.defines", "-D", "Preprocessor define NAME[=VALUE]", T::defines, compiling,
     false, 0, 0, add<&R::compile, &C::defines>},
    {"include_dirs", "compile.include_dirs", "-I", "Include directory", T::paths, compiling, false,
     0, 0, add<&R::compile, &C::include_dirs>},
    {"std", "compile.std", "--std", "Language standard (c++17, c++20)", T::text, compiling, false,
     0, 0, set<&R::compile, &C::std_version>},
    {"arch", "compile.arch", "--arch",
     "Target architecture: sm_90 (a binary), compute_90 (PTX), gfx90a (AMD)", T::text, compiling,
     false, 0, 0, set<&R::compile, &C::arch>},
    {"options", "compile.options", "--opt", "Extra compiler option, passed through", T::texts,
     compiling, false, 0, 0, add<&R::compile, &C::extra>},
    {"compiler", "compile.compiler", "--compiler",
     "CUDA compiler: auto (NVRTC, else clang), nvrtc, clang, nvcc", T::compiler, compiling, false,
     0, 0, set<&R::compile, &C::compiler>},
    {"print", "print", "--print", "Buffers to print: outputs (default), all, none, or NAMES",
     T::print, run, false, 0, 0, set<&R::print>},
    {"save", "save", "--save", "Write every buffer as DIR/NAME.npy", T::path, run, false, 0, 0,
     set<&R::save_dir>},
    {"expect", "expect", "--expect", "Expected output: NAME=@ref.npy | NAME=[…] | NAME=SPEC",
     T::expects, run_bench, false, 0, 0, set<&R::expects>},
    {"rtol", "rtol", "--rtol", "Relative tolerance of --expect (default 1e-5)", T::real, run_bench,
     false, 0, 0, set<&R::rtol>},
    {"atol", "atol", "--atol", "Absolute tolerance of --expect (default 1e-8)", T::real, run_bench,
     false, 0, 0, set<&R::atol>},
    {"exact", "exact", "--exact", "Compare --expect bit for bit (what a capture replay does)",
     T::flag, run_bench, false, 0, 0, set<&R::exact>},
    {"repeat", "repeat", "--repeat", "Launch N times (timing)", T::count, run, false, 1,
     1'000'000'000, set<&R::repeat>},
    {"timeout", "timeout", "--timeout", "Watchdog: give up on a kernel after SEC seconds",
     T::seconds, run | Command::threads, false, 0, 0, set<&R::timeout_s>},
    {"backend", "backend", "--backend", "auto, cuda, hip or cpu", T::text, everywhere, false, 0, 0,
     set<&R::backend>},
    {"device", "device", "--device", "Device index", T::count, everywhere, false, 0, 1 << 20,
     set<&R::device>},
    {"cpu_threads", "", "--cpu-threads", "CPU backend: worker threads (0 = all cores)", T::count,
     run, true, 0, 0, set<&R::device_settings, &S::host_threads>},
    {"printf_buffer", "", "--printf-buffer",
     "Device printf buffer in bytes (default 1048576, as CUDA's)", T::count, run, true, 1, 0,
     set<&R::device_settings, &S::printf_buffer>},
    {"no_cache", "", "--no-cache", "Do not use the compile cache", T::flag, run, false, 0, 0,
     no_cache},
    {"memcheck", "", "--memcheck", "CPU backend: check every memory access", T::flag, run, true, 0,
     0, set<&R::device_settings, &S::memcheck>},
    {"racecheck", "", "--racecheck",
     "CPU backend: report shared-memory hazards between threads of a block", T::flag, run, true, 0,
     0, set<&R::device_settings, &S::racecheck>},
    {"initcheck", "", "--initcheck",
     "CPU backend: report reads of device, shared and local memory never written", T::flag, run,
     true, 0, 0, set<&R::device_settings, &S::initcheck>},
    {"synccheck", "", "--synccheck",
     "CPU backend: report barriers and warp collectives not every member reaches", T::flag, run,
     true, 0, 0, set<&R::device_settings, &S::synccheck>},
    {"leak_check", "", "--leak-check",
     "CPU backend: report device-heap blocks malloc'ed and never freed (CUDA: destroy the "
     "context before exit, for compute-sanitizer's leak check)",
     T::flag, run, true, 0, 0, set<&R::device_settings, &S::leak_check>},
    {"heap_size", "", "--heap-size",
     "Device heap for in-kernel malloc in bytes (default 8388608, as CUDA's)", T::count, run, true,
     1, 0, set<&R::device_settings, &S::heap_bytes>},
    {"max_findings", "", "--max-findings",
     "Sanitizer findings shown in full (default 10; the rest are counted)", T::count, run, true, 0,
     0, set<&R::device_settings, &S::max_findings>},
    {"stats", "", "--stats", "CPU backend: count executed instructions", T::flag, run, true, 0, 0,
     set<&R::device_settings, &S::stats>},
    {"metrics", "metrics", "--metrics",
     "Hardware counters of the launch, in passes apart from the timing: Nsight Compute's metric "
     "names, comma-separated; roofline (a preset); list (what the device offers)",
     T::texts, Command::run | Command::bench, false, 0, 0, add<&R::metrics>},
    {"cpu_engine", "", "--cpu-engine",
     "CPU backend: interpret, compiled (PTX compiled to native code by clang, cached) or auto "
     "(compiled code when cached or worth compiling, else interpreted; the default)",
     T::text, run_bench, true, 0, 0, set<&R::device_settings, &S::cpu_engine>},
    {"description", "description", "", "What the spec is for (not used)", T::text, 0, false, 0, 0,
     ignore},
};

[[noreturn]] void bad_flag(const RunParameter& p, const std::string& text, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {}", p.flag(), text, what));
}

// The whole of `text` as a number of type N, else a usage error saying `what` it must be.
template <class N>
N number_of(const RunParameter& p, const std::string& text, std::string_view what) {
  N value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    bad_flag(p, text, what);
  return value;
}

long long checked_count(const RunParameter& p, long long n, const std::string& text) {
  if (n < p.min || (p.max != 0 && n > p.max))
    bad_flag(p, text,
             p.max != 0 ? fmt::format("must be between {} and {}", p.min, p.max)
                        : fmt::format("must be ≥ {}", p.min));
  return n;
}

} // namespace

bool RunParameter::repeatable() const {
  switch (type) {
  case T::texts:
  case T::paths:
  case T::args:
  case T::globals:
  case T::expects:
  case T::defines:
    return true;
  default:
    return false;
  }
}

std::string_view RunParameter::flag() const {
  std::string_view rest = flags;
  std::string_view first;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view one = rest.substr(0, comma);
    if (one.starts_with("--"))
      return one;
    if (first.empty())
      first = one;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return first;
}

std::span<const RunParameter> run_parameters() {
  return k_parameters;
}

const RunParameter& run_parameter(std::string_view name) {
  for (const RunParameter& p : k_parameters)
    if (p.name == name)
      return p;
  throw std::logic_error(fmt::format("no run parameter '{}'", name));
}

ParameterValue read_flag_value(const RunParameter& p, const std::vector<std::string>& texts) {
  if (p.repeatable()) {
    if (p.type == T::expects)
      for (const std::string& t : texts)
        if (const auto eq = t.find('='); eq == std::string::npos || eq == 0)
          bad_flag(p, t, "expected NAME=VALUES");
    return texts;
  }
  const std::string text = texts.empty() ? std::string() : texts.back();
  switch (p.type) {
  case T::text:
  case T::print:
  case T::path: // as written: relative to the working directory, where the run starts
    return text;
  case T::compiler:
    return compiler_choice(text, std::string(p.flag()));
  case T::dims:
    return parse_dims(text, std::string(p.flag()));
  case T::count:
    return checked_count(
        p, number_of<long long>(p, text, fmt::format("must be a whole number ≥ {}", p.min)), text);
  case T::bytes:
    return checked_count(p, eval_int_expr(text, std::string(p.flag())), text);
  case T::real:
    return tolerance(number_of<double>(p, text, "must be a number"), p.flag());
  case T::seconds:
    return watchdog_limit(number_of<double>(p, text, "must be a number of seconds"), p.flag());
  case T::flag:
    return true;
  default:
    throw std::logic_error(fmt::format("run parameter '{}': no flag reader", p.name));
  }
}

void store(RunRequest& request, const RunParameter& parameter, ParameterValue&& value) {
  parameter.store(request, std::move(value));
}

void apply_flags(RunRequest& request, const GivenFlags& flags) {
  for (const auto& [parameter, texts] : flags.values)
    store(request, *parameter, read_flag_value(*parameter, texts));
  if (!flags.base_dir.empty())
    request.base_dir = flags.base_dir;
}

std::vector<std::string_view> spec_keys(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const RunParameter& p : k_parameters) {
    std::string_view key = p.spec_key;
    if (key.empty())
      continue;
    const auto dot = key.find('.');
    if (section.empty()) {
      key = key.substr(0, dot);
    } else {
      if (dot == std::string_view::npos || key.substr(0, dot) != section)
        continue;
      key = key.substr(dot + 1);
    }
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      keys.push_back(key);
  }
  return keys;
}

} // namespace gpurun
