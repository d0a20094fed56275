#include "bench/spread.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <exception>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/shard.hpp"

namespace gpurun::bench {

namespace {

std::optional<int> index_of(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0)
    return std::nullopt;
  return value;
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos)
    return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

/// One device's worker: its report, what it ran and why it stopped.
struct Worker {
  const Target* target = nullptr;
  BenchReport report;
  std::optional<DeviceLoss> loss;
  std::exception_ptr unexpected; ///< anything but a device loss (a bug, out of host memory)
  double busy_s = 0;
};

DeviceRecord record_of(const Worker& w, std::size_t cases) {
  const DeviceProperties& p = w.target->device->properties();
  DeviceRecord d;
  d.index = w.target->device_index;
  d.name = p.name;
  d.arch = p.arch;
  d.driver_version = p.driver_version;
  d.l2_bytes = p.l2_bytes;
  d.peak_bandwidth_gbs = p.memory_bandwidth_gbs;
  d.measured_peak_gbs = w.report.measured_peak_gbs;
  d.peak_error = w.report.peak_error;
  d.clocks = w.report.clocks;
  d.roofline = w.report.roofline;
  d.cases = cases;
  d.busy_s = w.busy_s;
  if (w.loss)
    d.error = w.loss->reason;
  return d;
}

/// Runs one model's devices over the whole case list; returns the cases in suite order.
std::vector<CaseResult> run_model(const std::string& suite_name,
                                  const std::vector<BenchCase>& cases,
                                  const std::vector<const Target*>& targets,
                                  const BenchOptions& options, std::span<const double> costs,
                                  std::vector<DeviceRecord>& records) {
  const std::size_t n = targets.size();
  std::vector<Worker> workers(n);
  // Under --interleave a worker holds all its cases at once: a fixed share each.
  std::vector<std::unique_ptr<CaseQueue>> queues;
  if (options.interleave) {
    for (auto& share : interleave_shares(costs, n))
      queues.push_back(std::make_unique<CaseQueue>(std::move(share), 1));
  } else {
    queues.push_back(std::make_unique<CaseQueue>(dispatch_order(costs), n));
  }
  std::mutex owner_mutex;
  std::vector<std::optional<std::size_t>> owner(cases.size()); // the worker whose result counts

  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < n; ++k) {
    workers[k].target = targets[k];
    workers[k].report = device_report(suite_name, cases, *targets[k], options);
    workers[k].report.cases.resize(cases.size());
    threads.emplace_back([&, k] {
      Worker& w = workers[k];
      CaseQueue& queue = options.interleave ? *queues[k] : *queues[0];
      const std::size_t slot = options.interleave ? 0 : k;
      const auto start = std::chrono::steady_clock::now();
      try {
        w.loss = run_bench_into(w.report, cases, *w.target, options,
                                [&]() -> std::optional<std::size_t> {
                                  auto i = queue.take(slot);
                                  if (i) {
                                    const std::lock_guard lock(owner_mutex);
                                    owner[*i] = k;
                                  }
                                  return i;
                                });
      } catch (...) {
        w.unexpected = std::current_exception();
      }
      w.busy_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      // A lost device's unfinished cases go to the devices still running (with --interleave the
      // shares are fixed, and they stay with the device that lost them).
      if (w.loss && !options.interleave)
        queue.leave(slot, w.loss->unfinished);
      else
        queue.leave(slot);
    });
  }
  for (auto& t : threads)
    t.join();
  for (const auto& w : workers)
    if (w.unexpected)
      std::rethrow_exception(w.unexpected);

  // Cases no device of the model could finish.
  std::vector<std::string> losses;
  for (const auto& w : workers)
    if (w.loss)
      losses.push_back(fmt::format("{}:{}: {}", w.target->backend_name(), w.target->device_index,
                                   w.loss->reason));
  const std::string why =
      fmt::format("not run: every {} device failed ({})",
                  targets.front()->device->properties().name, fmt::join(losses, "; "));
  for (const auto& queue : queues)
    for (std::size_t i : queue->drain())
      if (!owner[i] || workers[*owner[i]].report.cases[i].ok)
        owner[i].reset();

  std::vector<CaseResult> merged(cases.size());
  std::vector<std::size_t> measured(n, 0);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (owner[i]) {
      const Worker& w = workers[*owner[i]];
      merged[i] = w.report.cases[i];
      ++measured[*owner[i]];
      // A case still being sampled when its device was lost (--interleave).
      if (!merged[i].ok && merged[i].reason.empty())
        merged[i].reason = fmt::format("device lost before the case finished: {}",
                                       w.loss ? w.loss->reason : std::string("unknown"));
      continue;
    }
    CaseResult& r = merged[i];
    r.name = cases[i].name;
    r.case_name = cases[i].case_name;
    r.point = cases[i].point;
    r.bytes = cases[i].bytes;
    r.flops = cases[i].flops;
    r.device = targets.front()->device->properties().name;
    r.device_index = -1;
    r.reason = why;
  }
  for (std::size_t k = 0; k < n; ++k)
    records.push_back(record_of(workers[k], measured[k]));
  return merged;
}

} // namespace

std::vector<int> parse_device_list(std::string_view text, std::size_t device_count,
                                   std::string_view field) {
  const std::string list = trimmed(text);
  std::vector<int> devices;
  if (list == "all") {
    if (device_count == 0)
      throw unavailable_error(fmt::format("{} all: the backend has no device", field));
    for (std::size_t i = 0; i < device_count; ++i)
      devices.push_back(static_cast<int>(i));
    return devices;
  }
  if (list.empty())
    throw usage_error(
        fmt::format("{} '{}': expected device indices (0,1 or 0-3) or all", field, text));
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const std::string item = trimmed(std::string_view(list).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    const auto dash = item.find('-');
    const auto first = index_of(dash == std::string::npos ? item : item.substr(0, dash));
    const auto last = dash == std::string::npos ? first : index_of(item.substr(dash + 1));
    if (!first || !last)
      throw usage_error(
          fmt::format("{} '{}': '{}' is not a device index or range (0, 2-3)", field, text, item));
    if (*last < *first)
      throw usage_error(fmt::format("{} '{}': the range '{}' runs backwards", field, text, item));
    for (int d = *first; d <= *last; ++d) {
      if (static_cast<std::size_t>(d) >= device_count)
        throw unavailable_error(fmt::format("{} '{}': device {} is not there; the backend has {} "
                                            "device(s)",
                                            field, text, d, device_count));
      if (std::find(devices.begin(), devices.end(), d) != devices.end())
        throw usage_error(fmt::format("{} '{}': device {} is listed twice", field, text, d));
      devices.push_back(d);
    }
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return devices;
}

std::vector<ModelGroup> group_by_model(std::span<const DeviceProperties> devices) {
  std::vector<ModelGroup> groups;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto it = std::find_if(groups.begin(), groups.end(), [&](const ModelGroup& g) {
      return g.model == devices[i].name && g.arch == devices[i].arch;
    });
    if (it != groups.end())
      it->members.push_back(i);
    else
      groups.push_back(ModelGroup{devices[i].name, devices[i].arch, {i}});
  }
  return groups;
}

std::vector<std::size_t> dispatch_order(std::span<const double> costs) {
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  return order;
}

CaseQueue::CaseQueue(std::vector<std::size_t> order, std::size_t workers)
    : m_cases(order.begin(), order.end()), m_busy(workers, false) {}

std::optional<std::size_t> CaseQueue::take(std::size_t worker) {
  std::unique_lock lock(m_mutex);
  m_busy.at(worker) = false;
  m_changed.notify_all();
  m_changed.wait(lock, [&] {
    return !m_cases.empty() || std::none_of(m_busy.begin(), m_busy.end(), [](bool b) { return b; });
  });
  if (m_cases.empty())
    return std::nullopt;
  const std::size_t i = m_cases.front();
  m_cases.pop_front();
  m_busy[worker] = true;
  return i;
}

void CaseQueue::leave(std::size_t worker, std::span<const std::size_t> unfinished) {
  const std::lock_guard lock(m_mutex);
  m_cases.insert(m_cases.begin(), unfinished.begin(), unfinished.end());
  m_busy.at(worker) = false;
  m_changed.notify_all();
}

std::vector<std::size_t> CaseQueue::drain() {
  const std::lock_guard lock(m_mutex);
  std::vector<std::size_t> left(m_cases.begin(), m_cases.end());
  m_cases.clear();
  return left;
}

std::vector<std::vector<std::size_t>> interleave_shares(std::span<const double> costs,
                                                        std::size_t workers) {
  std::vector<std::vector<std::size_t>> shares(workers);
  const auto assignment = assign_shards(costs, workers);
  for (std::size_t i = 0; i < assignment.size(); ++i)
    shares[assignment[i]].push_back(i);
  return shares;
}

BenchReport run_bench_spread(const std::string& suite_name, const std::vector<BenchCase>& cases,
                             const std::vector<Target>& targets, const BenchOptions& options,
                             std::span<const double> costs) {
  if (targets.empty())
    throw usage_error("--devices: no device listed");
  std::vector<DeviceProperties> properties;
  for (const auto& t : targets)
    properties.push_back(t.device->properties());
  const auto start = std::chrono::steady_clock::now();

  BenchReport report = device_report(suite_name, cases, targets.front(), options);
  std::vector<DeviceRecord> records(targets.size());
  for (const ModelGroup& group : group_by_model(properties)) {
    std::vector<const Target*> members;
    for (std::size_t m : group.members)
      members.push_back(&targets[m]);
    std::vector<DeviceRecord> group_records;
    auto results = run_model(suite_name, cases, members, options, costs, group_records);
    for (std::size_t k = 0; k < group.members.size(); ++k)
      records[group.members[k]] = std::move(group_records[k]);
    for (auto& r : results)
      report.cases.push_back(std::move(r));
  }
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Devices that all failed before measuring anything end the command as one device would.
  const bool all_failed = std::all_of(records.begin(), records.end(), [](const DeviceRecord& d) {
    return d.failed() && d.cases == 0;
  });
  if (all_failed && !cases.empty())
    throw Error(ExitCode::device,
                fmt::format("--devices: every device failed; {}:{}: {}", report.backend,
                            records.front().index, records.front().error));
  report.clocks = records.front().clocks;
  // One set of roofs for the report: counted ones where a device has them.
  for (const auto& d : records)
    if (d.roofline && (!report.roofline || d.roofline->source == "counters"))
      report.roofline = d.roofline;
  report.measured_peak_gbs = records.front().measured_peak_gbs;
  report.peak_error = records.front().peak_error;
  report.devices = std::move(records);
  return report;
}

} // namespace gpurun::bench
