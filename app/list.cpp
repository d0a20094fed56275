// `gpurun list FILE`: the kernels of a file, as the user names them, with their parameters and the
// file's own launches of them — how the file itself runs each kernel.
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "base/json_text.hpp"
#include "pipeline/listing.hpp"

namespace gpurun {
namespace {

struct ListOptions {
  std::string file;
  bool json = false;
};

std::string parameter_list(const KernelSignature& k) {
  std::vector<std::string> params;
  for (const auto& p : k.params)
    params.push_back(fmt::format("{} {}", p.type.c_type, p.name));
  return fmt::format("({})", fmt::join(params, ", "));
}

std::string configuration(const KernelLaunchSite& l) {
  std::string text = l.grid + ", " + l.block;
  if (!l.shared.empty())
    text += ", " + l.shared;
  if (!l.stream.empty())
    text += ", " + l.stream;
  return text;
}

nlohmann::ordered_json to_json(const FileListing& listing) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const auto& k : listing.kernels) {
    nlohmann::ordered_json params = nlohmann::ordered_json::array();
    for (const auto& p : k.signature.params)
      params.push_back({{"name", p.name}, {"type", p.type.c_type}});
    nlohmann::ordered_json launches = nlohmann::ordered_json::array();
    for (const auto& l : k.launches) {
      nlohmann::ordered_json e{{"kernel", l.expression},
                               {"caller", l.caller},
                               {"line", l.line},
                               {"grid", l.grid},
                               {"block", l.block}};
      e["shared"] =
          l.shared.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(l.shared);
      e["stream"] =
          l.stream.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(l.stream);
      e["arguments"] = l.arguments;
      launches.push_back(std::move(e));
    }
    kernels.push_back({{"name", k.signature.name},
                       {"line", k.signature.line},
                       {"extern_c", k.signature.extern_c},
                       {"template_params", k.signature.template_params},
                       {"params", std::move(params)},
                       {"launches", std::move(launches)}});
  }
  return {{"file", listing.file.string()}, {"kernels", std::move(kernels)}};
}

void print_text(const FileListing& listing) {
  const std::size_t n = listing.kernels.size();
  fmt::print("{}: {} kernel{}\n", listing.file.string(), n, n == 1 ? "" : "s");
  for (const auto& k : listing.kernels) {
    const auto& s = k.signature;
    const std::string templ =
        s.template_params.empty()
            ? std::string()
            : fmt::format("template <{}> ", fmt::join(s.template_params, ", "));
    fmt::print("\n{}{}{}  (line {})\n", templ, s.name, parameter_list(s), s.line);
    if (k.launches.empty())
      fmt::print("  not launched in this file\n");
    for (const auto& l : k.launches)
      fmt::print("  line {}{}: {}<<<{}>>>({})\n", l.line, l.caller.empty() ? "" : " in " + l.caller,
                 l.expression, configuration(l), l.arguments);
  }
}

} // namespace

void add_list_command(CLI::App& app, CommandEnv& /*env*/) {
  auto o = std::make_shared<ListOptions>();
  auto* cmd = app.add_subcommand(
      "list",
      "The kernels of a file: names, parameters, and how the file's host code launches them");
  cmd->footer("Examples:\n"
              "  gpurun list layernorm_forward.cu\n"
              "  gpurun list kernel.cu --json");
  cmd->add_option("file", o->file, "Kernel file (.cu, .hip, .ptx)")->required();
  cmd->add_flag("--json", o->json, "Print one JSON document");
  cmd->callback([o] {
    const FileListing listing = list_file(o->file);
    if (o->json)
      fmt::print("{}\n", json_text(to_json(listing), 2));
    else
      print_text(listing);
  });
}

} // namespace gpurun
