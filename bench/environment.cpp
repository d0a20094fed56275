#include "bench/environment.hpp"

#include <sys/utsname.h>

#include <fstream>
#include <thread>

#include <fmt/format.h>

namespace gpurun::bench {
namespace {

/// /proc/cpuinfo's first "model name", or "unknown".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0)
      continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      break;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

std::string build_type() {
  std::string type =
#ifdef NDEBUG
      "release";
#else
      "debug";
#endif
#if defined(__SANITIZE_ADDRESS__)
  type += "+asan";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  type += "+asan";
#endif
#endif
  return type;
}

} // namespace

Environment host_environment() {
  Environment env;
  env.emplace_back("gpurun_version", GPURUN_VERSION);
  env.emplace_back("build_type", build_type());
  env.emplace_back("cpu", cpu_model());
  env.emplace_back("cpus", std::to_string(std::thread::hardware_concurrency()));
  utsname u{};
  env.emplace_back("os", ::uname(&u) == 0 ? fmt::format("{} {}", u.sysname, u.release) : "unknown");
  return env;
}

std::vector<std::string> environment_differences(const Environment& baseline,
                                                 const Environment& fresh) {
  std::vector<std::string> out;
  for (const auto& [name, before] : baseline)
    for (const auto& [other, after] : fresh)
      if (other == name && after != before)
        out.push_back(fmt::format("{}: {} in the baseline, {} in the new file", name, before,
                                  after));
  return out;
}

} // namespace gpurun::bench
