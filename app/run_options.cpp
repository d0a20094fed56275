#include "app/run_options.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "app/command.hpp"
#include "base/error.hpp"
#include "pipeline/spec.hpp"

namespace gpurun {

namespace {
// What help shows after the flag.
const char* value_name(ParameterType type) {
  switch (type) {
  case ParameterType::dims:
    return "X[,Y[,Z]]";
  case ParameterType::count:
    return "INT";
  case ParameterType::bytes:
    return "BYTES";
  case ParameterType::real:
    return "FLOAT";
  case ParameterType::seconds:
    return "SEC";
  case ParameterType::path:
  case ParameterType::paths:
    return "PATH";
  case ParameterType::flag:
    return "";
  default:
    return "TEXT";
  }
}
} // namespace

void ParameterFlags::add_to(CLI::App& cmd, Command command) {
  for (const RunParameter& p : run_parameters()) {
    if (!p.taken_by(command) || p.flags.empty())
      continue;
    // A name the command already gives its own option stays that option's (bench's -a is --axis).
    std::string names;
    std::string_view rest = p.flags;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string name(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (cmd.get_option_no_throw(name) == nullptr)
        names += (names.empty() ? "" : ",") + name;
    }
    Bound& b = m_bound.emplace_back();
    b.parameter = &p;
    const std::string help(p.help);
    if (p.type == ParameterType::flag) {
      b.option = cmd.add_flag(names, b.on, help);
    } else if (p.repeatable()) {
      b.option = cmd.add_option(names, b.texts, help)->allow_extra_args(false);
    } else {
      b.option = cmd.add_option(names, b.text, help);
      if (p.type == ParameterType::count)
        b.option->check(whole_number_at_least(p.min));
    }
    b.option->type_name(value_name(p.type));
  }
}

CLI::Option* ParameterFlags::option(std::string_view name) const {
  for (const Bound& b : m_bound)
    if (b.parameter->name == name)
      return b.option;
  return nullptr;
}

GivenFlags ParameterFlags::given() const {
  GivenFlags given;
  given.base_dir = std::filesystem::current_path();
  for (const Bound& b : m_bound) {
    if (b.option->count() == 0)
      continue;
    if (b.parameter->type == ParameterType::flag) {
      if (b.on)
        given.add(*b.parameter, {});
    } else {
      given.add(*b.parameter, b.parameter->repeatable() ? b.texts : std::vector{b.text});
    }
  }
  return given;
}

void add_run_options(CLI::App& cmd, RunOptions& o) {
  cmd.add_option("file", o.file, "Kernel file (.cu .hip .ptx) or JSON run spec (.json)")
      ->required();
  cmd.add_option("--spec", o.spec, "JSON run spec (flags override it)");
  o.parameters.add_to(cmd, Command::run);
  cmd.add_flag("--json", o.json, "Print one JSON document");
  cmd.add_flag("-v,--verbose", o.verbose,
               "Say which compiler compiled what of the file; a compile error's whole log");
  cmd.add_option("--junit", o.junit_file,
                 "Also write a JUnit XML report (each --expect a test case) for CI");
  cmd.add_flag("--quiet,-q", o.quiet, "Print only failures");
}

namespace {
bool is_spec_file(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}
} // namespace

RunRequest make_run_request(const RunOptions& o) {
  GivenFlags flags = o.parameters.given();
  std::string spec_path = o.spec;
  if (is_spec_file(o.file)) {
    if (!spec_path.empty())
      throw usage_error(fmt::format("--spec {}: FILE {} is already a spec", spec_path, o.file));
    spec_path = o.file;
  } else {
    if (o.parameters.option("source")->count() != 0)
      throw usage_error(fmt::format("--source: FILE {} is already the kernel file; --source "
                                    "replaces a spec's",
                                    o.file));
    flags.values.insert(flags.values.begin(), {&run_parameter("source"), {o.file}});
  }
  RunRequest request = spec_path.empty() ? RunRequest{} : read_spec(spec_path);
  apply_flags(request, flags);
  request.json = o.json;
  request.quiet = o.quiet;
  return request;
}

} // namespace gpurun
