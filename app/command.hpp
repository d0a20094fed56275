#pragma once
// Each subcommand lives in its own file (app/run.cpp, app/threads.cpp, …) and registers itself on
// the CLI11 app through one add_*_command function listed in app/main.cpp. The callback stores
// the process exit code in `exit_code`; errors are thrown as gpurun::Error and mapped by main().
#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace gpurun {
class BackendRegistry;
class Context;
struct MetricSelection;
struct Target;

struct CommandEnv {
  BackendRegistry& registry;
  int& exit_code;
  /// Device printf text a command keeps for its JSON document (run --json). Set once the command
  /// keeps it; main() puts it in the error document when the command fails.
  std::optional<std::string>& device_output;
};

/// Flushes stdout and stderr and ends the process now, skipping destructors and exit handlers
/// (device contexts are released by the driver at process exit). Only after every output file has
/// been written and closed.
[[noreturn]] void exit_without_teardown(int code);

/// An option check: the value is a whole number ≥ `minimum` ("--repeat: '0' must be a whole
/// number ≥ 1"), instead of CLI11's range message with its 309-digit bound (app/cli_checks.cpp).
[[nodiscard]] CLI::Validator whole_number_at_least(long long minimum);

/// A progress line's status for a launch: the kernel, blocks done of the grid where the backend
/// says (the CPU backend), and an estimate of the time left (app/run.cpp; also threads --run).
[[nodiscard]] std::function<std::string()> launch_status(const Context& context,
                                                         const std::string& kernel);

/// `--metrics list`: prints the metrics `target`'s device offers (JSON with `json`) and returns
/// true; false, printing nothing, when the selection is not `list` (app/run.cpp; also bench).
[[nodiscard]] bool print_metric_catalog(const MetricSelection& metrics, const Target& target,
                                        bool json);

void add_run_command(CLI::App& app, CommandEnv& env);     // app/run.cpp (also the default)
void add_devices_command(CLI::App& app, CommandEnv& env); // app/devices.cpp
void add_compile_command(CLI::App& app, CommandEnv& env); // app/compile.cpp
void add_cache_command(CLI::App& app, CommandEnv& env);   // app/cache.cpp
void add_list_command(CLI::App& app, CommandEnv& env);    // app/list.cpp
void add_threads_command(CLI::App& app, CommandEnv& env); // app/threads.cpp
void add_bench_command(CLI::App& app, CommandEnv& env);   // app/bench.cpp
void add_compare_command(CLI::App& app, CommandEnv& env); // app/compare.cpp
void add_merge_command(CLI::App& app, CommandEnv& env);   // app/merge.cpp
void add_plot_command(CLI::App& app, CommandEnv& env);    // app/plot.cpp
void add_capture_command(CLI::App& app, CommandEnv& env); // app/capture.cpp
void add_tune_command(CLI::App& app, CommandEnv& env);    // app/tune.cpp
void add_help_command(CLI::App& app, CommandEnv& env);    // app/help.cpp
/// `completion` and `man` (app/shell_integration.cpp)
void add_shell_integration_commands(CLI::App& app, CommandEnv& env);

} // namespace gpurun
