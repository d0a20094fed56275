// gpurun: run, check and time one GPU kernel without writing a host program.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "app/nvcc_spellings.hpp"
#include "backends/registry.hpp"
#include "base/detailed_error.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/process_clock.hpp"
#include "base/signal_cleanup.hpp"
#include "base/suggest.hpp"
#include "output/color.hpp"
#include "output/compile_log.hpp"
#include "output/error_report.hpp"

namespace {

const std::vector<std::string> k_commands = {"run",     "bench",      "tune",    "compare", "merge",   "plot",
                                             "capture", "threads",    "devices", "compile", "list",
                                             "cache",   "completion", "man",     "help"};

/// `gpurun FILE …` means `gpurun run FILE …`: insert the subcommand when the first argument is
/// not one of ours (or a top-level flag). A first word that is no file but nearly a command name
/// is a mistyped command.
std::vector<std::string> with_default_command(std::vector<std::string> args) {
  if (args.empty())
    return args;
  const std::string& first = args.front();
  if (first == "-h" || first == "--help" || first == "--help-all" || first == "--version")
    return args;
  for (const std::string& c : k_commands)
    if (first == c)
      return args;
  std::error_code ec;
  if (!first.starts_with('-') && first.find('.') == std::string::npos &&
      !std::filesystem::exists(first, ec))
    if (const auto command = gpurun::closest(first, k_commands))
      throw gpurun::usage_error(
          fmt::format("unknown command '{}' (did you mean '{}'?)", first, *command));
  args.insert(args.begin(), "run");
  return args;
}

/// The option names of `command` as typed ("--grid", "-g").
std::vector<std::string> option_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* o : command.get_options()) {
    for (const std::string& l : o->get_lnames())
      names.push_back("--" + l);
    for (const std::string& s : o->get_snames())
      names.push_back("-" + s);
  }
  return names;
}

/// For CLI11's "arguments were not expected": the first word that looks like an option and is
/// none of the command's, with the nearest option name; empty when there is none.
std::string unknown_option(const CLI::App& app, const std::vector<std::string>& args) {
  const auto parsed = app.get_subcommands();
  const CLI::App& command = parsed.empty() ? app : *parsed.front();
  const auto names = option_names(command);
  bool skip = true; // the command's own name
  for (const std::string& word : args) {
    if (skip) {
      skip = false;
      continue;
    }
    if (!word.starts_with('-') || word == "-" || word == "--")
      continue;
    const std::string name = word.substr(0, word.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end())
      continue;
    if (name.size() > 2 && name[1] != '-' && !name.starts_with("-D") && !name.starts_with("-I")) {
      // a short option with its value glued (-g2) is known
      if (std::find(names.begin(), names.end(), name.substr(0, 2)) != names.end())
        continue;
    }
    return fmt::format("unknown option '{}'{}", word, gpurun::did_you_mean(name, names));
  }
  return {};
}

/// Whether the command line asks for JSON (--json, or threads' --format json). Read from the
/// words themselves so that an error the parser finds is reported as JSON too.
bool wants_json(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--json" || args[i] == "--format=json")
      return true;
    if (args[i] == "--format" && i + 1 < args.size() && args[i + 1] == "json")
      return true;
  }
  return false;
}

/// Whether the command line asks for a compile error's whole log (-v, --verbose).
bool wants_verbose(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(),
                     [](const std::string& a) { return a == "-v" || a == "--verbose"; });
}

/// The one-line message on stderr, and under --json the error document on stdout. A compile
/// error's log follows: its first errors and a count, or all of it with -v.
int report_error(const std::exception& error, std::string_view kind, bool json, bool verbose,
                 const std::optional<std::string>& device_output) {
  std::fflush(stdout);
  // The message is one line whatever user input it quotes; a compile error's log follows it.
  std::string_view message = error.what();
  std::string_view log;
  if (const auto* compile = dynamic_cast<const gpurun::CompileError*>(&error);
      compile != nullptr && !compile->log().empty() && message.size() > compile->log().size()) {
    log = message.substr(message.size() - compile->log().size());
    message.remove_suffix(log.size() + 1);
  }
  const auto* detailed = dynamic_cast<const gpurun::DetailedError*>(&error);
  if (detailed != nullptr)
    message = detailed->message();
  // Kernels by the names their authors gave them, not their symbols.
  std::cerr << gpurun::error_prefix(kind) << gpurun::one_line(gpurun::with_kernel_names(message))
            << '\n';
  if (detailed != nullptr)
    for (const auto& line : detailed->details())
      std::cerr << gpurun::one_line(gpurun::with_kernel_names(line)) << '\n';
  if (!log.empty()) {
    if (verbose)
      std::cerr << gpurun::without_jit_hints(log) << '\n';
    else
      std::cerr << gpurun::summarize_compile_log(log).text << '\n';
  }
  if (json)
    std::cout << gpurun::dump_document(gpurun::error_document(error, device_output)) << '\n';
  std::cout.flush();
  std::cerr.flush();
  return static_cast<int>(gpurun::exit_code_of(error));
}

/// The exit code once what the command printed has reached standard output: a write that failed
/// (a full disk, `> /dev/full`) is an error on stderr, and turns 0 or 1 into 2 — the output is
/// lost, so neither "ok" nor a verdict stands. Every way out of main goes through here.
int with_output_checked(int code) {
  errno = 0;
  std::cout.flush(); // flushes stdout too: std::cout writes through C's stdout
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && !std::ferror(stdout) && !std::cout.bad())
    return code;
  const int error = errno;
  // errno says why when the last flush failed; an earlier one may have failed instead.
  std::cerr << gpurun::error_prefix() << "standard output: cannot write"
            << (error != 0 ? std::string(": ") + std::strerror(error)
                           : std::string(" (a write failed; the output is incomplete)"))
            << '\n';
  std::cerr.flush();
  return code == 0 || code == static_cast<int>(gpurun::ExitCode::check_failed)
             ? static_cast<int>(gpurun::ExitCode::usage)
             : code;
}

int run_command(std::vector<std::string> args);

} // namespace

namespace gpurun {
void exit_without_teardown(int code) {
  code = with_output_checked(code);
  std::fflush(stderr);
  trace("exit");
  std::_Exit(code);
}
} // namespace gpurun

int main(int argc, char** argv) {
  gpurun::mark_process_start();
  gpurun::install_signal_cleanup();
  return with_output_checked(run_command(std::vector<std::string>(argv + 1, argv + argc)));
}

namespace {

int run_command(std::vector<std::string> args) {
  int exit_code = 0;
  const bool json = wants_json(args);
  const bool verbose = wants_verbose(args);
  std::optional<std::string> device_output;
  try {
    gpurun::trace("main");
    args = with_default_command(gpurun::rewrite_nvcc_spellings(std::move(args)));
    const std::vector<std::string> words = args;
    gpurun::BackendRegistry registry;
    gpurun::CommandEnv env{registry, exit_code, device_output};
    CLI::App app{"gpurun: run, check and time one GPU kernel without writing a host program",
                 "gpurun"};
    app.set_version_flag("--version", std::string("gpurun ") + GPURUN_VERSION);
    app.require_subcommand(1);
    gpurun::add_run_command(app, env);
    gpurun::add_threads_command(app, env);
    gpurun::add_bench_command(app, env);
    gpurun::add_tune_command(app, env);
    gpurun::add_devices_command(app, env);
    gpurun::add_compile_command(app, env);
    gpurun::add_list_command(app, env);
    gpurun::add_cache_command(app, env);
    gpurun::add_compare_command(app, env);
    gpurun::add_merge_command(app, env);
    gpurun::add_plot_command(app, env);
    gpurun::add_capture_command(app, env);
    gpurun::add_shell_integration_commands(app, env);
    gpurun::add_help_command(app, env);
    app.set_help_all_flag("--help-all", "Print the options of every command");
    // --backend offers the backends this build has.
    std::string backends = "auto";
    for (const auto& backend : registry.all())
      backends += "|" + backend->name();
    for (CLI::App* command : app.get_subcommands({})) {
      if (CLI::Option* option = command->get_option_no_throw("--backend"))
        option->description(
            fmt::format("Backend: {} (default auto: the best available)", backends));
      command
          ->add_option_function<std::string>(
              "--color",
              [](const std::string& value) {
                gpurun::set_color_choice(gpurun::parse_color_choice(value));
              },
              "Colour: auto (on a terminal, unless NO_COLOR is set), always, never")
          ->type_name("WHEN")
          ->trigger_on_parse();
      // Before the command's callback asks for devices: the CPU backend's virtual devices.
      if (gpurun::Backend* cpu = registry.find("cpu"))
        command
            ->add_option_function<std::size_t>(
                "--cpu-devices",
                [cpu](std::size_t count) {
                  try {
                    cpu->set_device_count(count);
                  } catch (const gpurun::Error& e) {
                    throw gpurun::Error(e.code(), fmt::format("--cpu-devices {}", e.what()));
                  }
                },
                "The CPU backend shows N virtual devices, each with its own contexts and a share "
                "of the cores (multi-device tests; default 1)")
            ->type_name("N")
            ->trigger_on_parse();
    }

    std::reverse(args.begin(), args.end()); // CLI11 takes a reversed vector
    try {
      app.parse(args);
    } catch (const CLI::ParseError& e) {
      // --help and --version are CLI11's to print (stdout); a parse error is ours: one line with
      // the prefix every gpurun error has.
      if (e.get_exit_code() == 0)
        return app.exit(e);
      std::string what = e.what();
      what = what.substr(0, what.find('\n'));
      if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr)
        if (std::string unknown = unknown_option(app, words); !unknown.empty())
          what = std::move(unknown);
      std::cerr << gpurun::error_prefix() << what << " (gpurun --help lists the options)\n";
      if (json)
        std::cout << gpurun::dump_document(gpurun::error_document(gpurun::usage_error(what)))
                  << std::endl;
      return static_cast<int>(gpurun::ExitCode::usage);
    }
  } catch (const gpurun::Error& e) {
    const int code = report_error(e, "error", json, verbose, device_output);
    // A hung kernel may still own the device: leave without tearing the context down.
    if (e.code() == gpurun::ExitCode::timeout)
      gpurun::exit_without_teardown(code);
    return code;
  } catch (const std::exception& e) {
    return report_error(e, "internal error", json, verbose, device_output);
  }
  gpurun::trace("exit");
  return exit_code;
}

} // namespace
