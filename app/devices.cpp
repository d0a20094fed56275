// `gpurun devices`: which backends and devices are here; `--check BACKEND` for scripts.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "backends/compilers/cuda_compiler.hpp"
#include "backends/registry.hpp"
#include "base/error.hpp"

namespace gpurun {

namespace {

nlohmann::json device_json(const DeviceProperties& p, int index) {
  return {{"index", index},
          {"name", p.name},
          {"vendor", p.vendor},
          {"arch", p.arch},
          {"compute_capability", fmt::format("{}.{}", p.compute_major, p.compute_minor)},
          {"multiprocessors", p.multiprocessors},
          {"warp_size", p.warp_size},
          {"total_memory_bytes", p.total_memory},
          {"max_threads_per_block", p.max_threads_per_block},
          {"max_block", {p.max_block.x, p.max_block.y, p.max_block.z}},
          {"max_grid", {p.max_grid.x, p.max_grid.y, p.max_grid.z}},
          {"max_shared_per_block", p.max_shared_per_block},
          {"max_shared_per_block_optin", p.max_shared_per_block_optin},
          {"l2_bytes", p.l2_bytes},
          {"clock_khz", p.clock_khz},
          {"memory_clock_khz", p.memory_clock_khz},
          {"memory_bus_bits", p.memory_bus_bits},
          {"memory_bandwidth_gbs", p.memory_bandwidth_gbs},
          {"driver_version", p.driver_version}};
}

std::string human_bytes(std::uint64_t bytes) {
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 1)
    return fmt::format("{:.1f} GiB", gib);
  return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// The CUDA compilers, each as found at run time, and the one a .cu compile picks by default.
struct CompilerReport {
  std::vector<compilers::CompilerInfo> compilers;
  compilers::CompilerInfo chosen;
};

CompilerReport find_compilers() {
  return {{compilers::nvrtc_info(), compilers::clang_info()}, compilers::choose(CompileOptions{})};
}

void print_compilers(const CompilerReport& report) {
  fmt::print("compilers (CUDA source)\n");
  for (const auto& c : report.compilers) {
    if (c.available)
      fmt::print("  {:<6} available, {}, {}\n", c.name, c.version, c.location);
    else
      fmt::print("  {:<6} unavailable: {}\n", c.name, c.reason);
  }
  if (report.chosen.available)
    fmt::print("  .cu files compile with {}\n", report.chosen.name);
  else
    fmt::print("  .cu files cannot be compiled here; .ptx files run\n");
}

nlohmann::json compilers_json(const CompilerReport& report) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& c : report.compilers) {
    nlohmann::json entry{{"available", c.available}};
    if (c.available) {
      entry["version"] = c.version;
      entry["location"] = c.location;
    } else {
      entry["reason"] = c.reason;
    }
    out[c.name] = entry;
  }
  // The compiler a .cu compile uses without --compiler; null when there is none.
  out["selected"] = report.chosen.available ? nlohmann::json(report.chosen.name) : nlohmann::json();
  return out;
}

void print_human(const BackendRegistry& registry) {
  for (const auto& backend : registry.all()) {
    const ProbeResult probe = backend->probe();
    if (!probe.available) {
      fmt::print("{:<7} unavailable: {}\n", backend->name(), probe.reason);
      continue;
    }
    auto devices = backend->devices();
    fmt::print("{:<7} available, {} device(s)\n", backend->name(), devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto& p = devices[i]->properties();
      fmt::print("  {}:{}  {} ({}, {} SMs, warp {}, {}", backend->name(), i, p.name, p.arch,
                 p.multiprocessors, p.warp_size, human_bytes(p.total_memory));
      if (p.memory_bandwidth_gbs > 0)
        fmt::print(", {:.0f} GB/s", p.memory_bandwidth_gbs);
      fmt::print(", max block {} threads, shared {} KiB/{} KiB opt-in)\n", p.max_threads_per_block,
                 p.max_shared_per_block / 1024, p.max_shared_per_block_optin / 1024);
    }
  }
  print_compilers(find_compilers());
}

nlohmann::json to_json(const BackendRegistry& registry) {
  nlohmann::json backends = nlohmann::json::array();
  for (const auto& backend : registry.all()) {
    const ProbeResult probe = backend->probe();
    nlohmann::json entry{{"name", backend->name()}, {"available", probe.available}};
    if (!probe.available)
      entry["reason"] = probe.reason;
    nlohmann::json devices = nlohmann::json::array();
    if (probe.available) {
      auto list = backend->devices();
      for (std::size_t i = 0; i < list.size(); ++i)
        devices.push_back(device_json(list[i]->properties(), static_cast<int>(i)));
    }
    entry["devices"] = devices;
    backends.push_back(entry);
  }
  return {{"backends", backends}, {"compilers", compilers_json(find_compilers())}};
}

} // namespace

void add_devices_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("devices", "List backends and devices");
  auto json = std::make_shared<bool>(false);
  auto check = std::make_shared<std::string>();
  cmd->add_flag("--json", *json, "Print JSON");
  cmd->add_option("--check", *check,
                  "Exit 0 when BACKEND (or 'gpu': any GPU backend) has a device, 5 when not");
  cmd->callback([json, check, &env] {
    if (!check->empty()) {
      bool found = false;
      std::string reason = "not built into this gpurun";
      for (const auto& backend : env.registry.all()) {
        const bool wanted = *check == "gpu" ? backend->name() != "cpu" : backend->name() == *check;
        if (!wanted)
          continue;
        const ProbeResult probe = backend->probe();
        if (probe.available && !backend->devices().empty())
          found = true;
        else
          reason = probe.available ? "no device" : probe.reason;
      }
      if (!found) {
        std::cerr << fmt::format("gpurun: error: --check {}: unavailable: {}\n", *check, reason);
        env.exit_code = static_cast<int>(ExitCode::unavailable);
      }
      if (*json)
        std::cout << nlohmann::json{{"backend", *check}, {"available", found}}.dump() << '\n';
      return;
    }
    if (*json)
      std::cout << to_json(env.registry).dump(2) << '\n';
    else
      print_human(env.registry);
  });
}

} // namespace gpurun
