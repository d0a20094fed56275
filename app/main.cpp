// gpurun: run, check and time one GPU kernel without writing a host program.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/command.hpp"
#include "backends/registry.hpp"
#include "base/error.hpp"
#include "base/process_clock.hpp"

namespace {

/// `gpurun FILE …` means `gpurun run FILE …`: insert the subcommand when the first argument is
/// not one of ours (or a top-level flag).
std::vector<std::string> with_default_command(int argc, char** argv) {
  static const char* commands[] = {"run",     "bench",   "compare", "threads",
                                   "devices", "compile", "cache"};
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    return args;
  const std::string& first = args.front();
  if (first == "-h" || first == "--help" || first == "--version")
    return args;
  for (const char* c : commands)
    if (first == c)
      return args;
  args.insert(args.begin(), "run");
  return args;
}

} // namespace

namespace gpurun {
void exit_without_teardown(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  trace("exit");
  std::_Exit(code);
}
} // namespace gpurun

int main(int argc, char** argv) {
  gpurun::mark_process_start();
  int exit_code = 0;
  try {
    gpurun::trace("main");
    gpurun::BackendRegistry registry;
    gpurun::CommandEnv env{registry, exit_code};
    CLI::App app{"gpurun: run, check and time one GPU kernel without writing a host program",
                 "gpurun"};
    app.set_version_flag("--version", std::string("gpurun ") + GPURUN_VERSION);
    app.require_subcommand(1);
    gpurun::add_run_command(app, env);
    gpurun::add_threads_command(app, env);
    gpurun::add_devices_command(app, env);
    gpurun::add_compile_command(app, env);
    gpurun::add_cache_command(app, env);

    auto args = with_default_command(argc, argv);
    std::reverse(args.begin(), args.end()); // CLI11 takes a reversed vector
    try {
      app.parse(args);
    } catch (const CLI::ParseError& e) {
      const int code = app.exit(e);
      return code == 0 ? 0 : static_cast<int>(gpurun::ExitCode::usage);
    }
  } catch (const gpurun::Error& e) {
    std::fflush(stdout);
    std::cerr << "gpurun: error: " << e.what() << '\n';
    if (e.code() == gpurun::ExitCode::timeout) {
      // A hung kernel may still own the device: leave without tearing the context down.
      std::cerr.flush();
      std::_Exit(e.exit_code());
    }
    return e.exit_code();
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "gpurun: internal error: " << e.what() << '\n';
    return static_cast<int>(gpurun::ExitCode::device);
  }
  std::fflush(stdout);
  gpurun::trace("exit");
  return exit_code;
}
