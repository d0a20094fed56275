// `gpurun devices`: which backends and devices are here; `--check BACKEND` for scripts.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "app/command.hpp"
#include "backends/registry.hpp"
#include "base/error.hpp"
#include "output/color.hpp"
#include "output/printer.hpp"

namespace gpurun {

namespace {

DevicesReport find_devices(const BackendRegistry& registry) {
  DevicesReport report;
  for (const auto& backend : registry.all()) {
    const ProbeResult probe = backend->probe();
    BackendReport entry{backend->name(), probe.available, probe.reason, {}, {}};
    if (probe.available) {
      for (const auto& device : backend->devices()) {
        entry.devices.push_back(device->properties());
        if (backend->name() != "cuda")
          continue;
        std::string why_not;
        entry.clocks.push_back(device->clock_monitor(why_not) ? "nvml" : "unavailable: " + why_not);
      }
    }
    report.backends.push_back(std::move(entry));
  }
  for (const auto& left_out : left_out_backends())
    report.backends.push_back(BackendReport{
        left_out.name, false, "not built into this gpurun: " + left_out.reason, {}, {}});
  // Each compiler once, though two backends compile with it (NVRTC: cuda and cpu); CUDA's are
  // listed with the choice a .cu compile makes, HIP's own compiler apart.
  for (const auto& backend : registry.all()) {
    const auto cuda_choice = backend->chosen_compiler(Language::cuda, CompileOptions{});
    const bool hip_only = !cuda_choice && backend->chosen_compiler(Language::hip, CompileOptions{});
    for (CompilerInfo& compiler : backend->compilers()) {
      if (hip_only) {
        report.hip_compiler = std::move(compiler);
        continue;
      }
      const bool listed = std::any_of(report.compilers.begin(), report.compilers.end(),
                                      [&](const auto& c) { return c.name == compiler.name; });
      if (!listed)
        report.compilers.push_back(std::move(compiler));
    }
    if (report.chosen.name.empty() && cuda_choice)
      report.chosen = *cuda_choice;
  }
  return report;
}

DeviceCheckReport check_backend(const BackendRegistry& registry, const std::string& wanted_name) {
  DeviceCheckReport report{wanted_name, false, "not built into this gpurun"};
  for (const auto& left_out : left_out_backends())
    if (left_out.name == wanted_name)
      report.reason = "not built into this gpurun: " + left_out.reason;
  for (const auto& backend : registry.all()) {
    const bool wanted =
        wanted_name == "gpu" ? backend->name() != "cpu" : backend->name() == wanted_name;
    if (!wanted)
      continue;
    const ProbeResult probe = backend->probe();
    if (probe.available && !backend->devices().empty())
      report.available = true;
    else
      report.reason = probe.available ? "no device" : probe.reason;
  }
  return report;
}

} // namespace

void add_devices_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("devices", "List backends and devices");
  cmd->footer("Examples:\n"
              "  gpurun devices\n"
              "  gpurun devices --json");
  auto json = std::make_shared<bool>(false);
  auto check = std::make_shared<std::string>();
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->add_option("--check", *check,
                  "Exit 0 when BACKEND (or 'gpu': any GPU backend) has a device, 5 when not");
  cmd->callback([json, check, &env] {
    const auto printer = make_printer(*json ? OutputFormat::json : OutputFormat::human);
    if (check->empty()) {
      printer->print_devices(find_devices(env.registry));
      return;
    }
    const DeviceCheckReport report = check_backend(env.registry, *check);
    if (!report.available) {
      std::cerr << error_prefix()
                << fmt::format("--check {}: unavailable: {}\n", *check, report.reason);
      env.exit_code = static_cast<int>(ExitCode::unavailable);
    }
    printer->print_device_check(report);
  });
}

} // namespace gpurun
