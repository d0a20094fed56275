#include "bench/p2p.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/statistics.hpp"

namespace gpurun::bench {

namespace {

constexpr std::size_t k_gpu_bytes = std::size_t{256} << 20;
constexpr std::size_t k_cpu_bytes = std::size_t{8} << 20;

struct Endpoint {
  std::unique_ptr<Context> context;
  std::unique_ptr<Buffer> src;
  std::unique_ptr<Buffer> dst;
  std::string error; ///< why the device takes no part
};

std::size_t copy_bytes(const std::vector<Target>& targets, const PeerOptions& options) {
  if (options.bytes > 0)
    return options.bytes;
  std::size_t bytes = k_gpu_bytes;
  for (const auto& t : targets) {
    const DeviceProperties& p = t.device->properties();
    if (p.l2_bytes == 0) // the CPU backend: no cache to outrun, copies are memcpy
      return k_cpu_bytes;
    if (p.total_memory > 0)
      bytes = std::min<std::size_t>(bytes, p.total_memory / 8);
  }
  return bytes;
}

std::string first_line(const std::exception& e) {
  const std::string text = e.what();
  return text.substr(0, text.find('\n'));
}

} // namespace

PeerMatrix measure_p2p(const std::vector<Target>& targets, const PeerOptions& options) {
  PeerMatrix m;
  const std::size_t n = targets.size();
  m.bytes = copy_bytes(targets, options);
  for (const auto& t : targets)
    m.devices.push_back(t.device_index);
  m.gbs.assign(n, std::vector<std::optional<double>>(n));
  m.path.assign(n, std::vector<std::string>(n));

  std::vector<Endpoint> ends(n);
  const std::vector<std::byte> pattern(m.bytes, std::byte{0x5a});
  for (std::size_t i = 0; i < n; ++i) {
    try {
      ends[i].context = targets[i].device->create_context(ContextOptions{});
      ends[i].src = ends[i].context->allocate(m.bytes);
      ends[i].dst = ends[i].context->allocate(m.bytes);
      ends[i].context->copy_to_device(*ends[i].src, pattern);
      ends[i].context->synchronize();
    } catch (const Error& e) {
      ends[i].error = first_line(e);
      ends[i].dst.reset();
      ends[i].src.reset();
      ends[i].context.reset();
      m.errors.push_back(fmt::format("{}: {}", targets[i].label(), ends[i].error));
    }
  }

  const int repeats = std::max(1, options.repeats);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (!ends[i].context || !ends[j].context)
        continue;
      Context& from = *ends[i].context;
      try {
        PeerPath path = PeerPath::direct;
        auto copy = [&] {
          if (i == j) {
            from.copy_device(*ends[i].dst, *ends[i].src);
            from.synchronize();
          } else {
            path = from.copy_to_peer(*ends[j].context, *ends[j].dst, *ends[i].src);
          }
        };
        if (i != j)
          (void)from.enable_peer_access(*ends[j].context);
        copy(); // untimed: first-touch costs, peer mappings
        std::vector<double> seconds;
        for (int r = 0; r < repeats; ++r) {
          const auto start = std::chrono::steady_clock::now();
          copy();
          seconds.push_back(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        const double s = median(seconds);
        if (s > 0)
          m.gbs[i][j] = static_cast<double>(m.bytes) / s / 1e9;
        m.path[i][j] = i == j ? "" : path == PeerPath::direct ? "direct" : "staged";
      } catch (const Error& e) {
        m.errors.push_back(
            fmt::format("{} → {}: {}", targets[i].label(), targets[j].label(), first_line(e)));
      }
    }
  }
  return m;
}

} // namespace gpurun::bench
