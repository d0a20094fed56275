#include "pipeline/collect.hpp"

#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/npy.hpp"
#include "base/process_clock.hpp"
#include "pipeline/arg_spec.hpp"
#include "pipeline/check.hpp"

namespace gpurun {

namespace {

void copy_out(PreparedRun& run) {
  Context& context = *run.context;
  auto& reports = run.outcome.buffers;
  for (const auto& b : run.buffers) {
    BufferReport report{b.name, b.is_input, b.host, HostBuffer(b.host.dtype(), b.host.shape())};
    if (b.home && b.home_index) {
      // A buffer placed on another device goes back there, and is read from there.
      Context& home = *run.home_contexts.at(*b.home_index);
      context.synchronize();
      const auto start = std::chrono::steady_clock::now();
      (void)context.copy_to_peer(home, *b.home, *b.device);
      run.outcome.timings.p2p_ms +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      home.copy_to_host(report.after.bytes(), *b.home);
    } else {
      context.copy_to_host(report.after.bytes(), *b.device);
    }
    reports.push_back(std::move(report));
  }
  for (const auto& g : run.globals) {
    BufferReport report{g.name, false, g.host, HostBuffer(g.host.dtype(), g.host.shape())};
    context.copy_from_symbol(report.after.bytes(), g.symbol);
    reports.push_back(std::move(report));
  }
}

void check_expectations(RunOutcome& outcome, const RunRequest& request) {
  for (const auto& text : request.expects) {
    auto [name, value] = split_name_value(text, "--expect");
    const BufferReport* got = nullptr;
    for (const auto& b : outcome.buffers)
      if (b.name == name)
        got = &b;
    if (got == nullptr)
      throw usage_error(fmt::format("--expect {}: no buffer named '{}'", text, name));
    HostBuffer expected = parse_expectation(value, got->after, request.base_dir);
    CheckReport check = compare_buffers(name, got->after, expected, request.rtol, request.atol,
                                        request.exact);
    if (!check.passed)
      outcome.status = "check_failed";
    outcome.checks.push_back(std::move(check));
  }
}

void save_buffers(const RunOutcome& outcome, const std::filesystem::path& dir) {
  prepare_save_dir(dir);
  for (const auto& b : outcome.buffers)
    write_npy(dir / (b.name + ".npy"), b.after);
}

} // namespace

void prepare_save_dir(const std::filesystem::path& dir) {
  if (dir.empty())
    throw usage_error("--save: needs a folder");
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw usage_error(fmt::format("--save {}: exists and is not a folder", dir.string()));
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw usage_error(
        fmt::format("--save {}: cannot create the folder: {}", dir.string(), ec.message()));
}

void collect(PreparedRun& run, const RunRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const double p2p_before = run.outcome.timings.p2p_ms;
  copy_out(run);
  run.outcome.timings.d2h_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() -
      (run.outcome.timings.p2p_ms - p2p_before);
  trace("copied out");
  check_expectations(run.outcome, request);
  if (request.save_dir)
    save_buffers(run.outcome, *request.save_dir);
}

} // namespace gpurun
