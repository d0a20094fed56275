#pragma once
// What a benchmark's figures depend on besides the code: the machine, the build and the device's
// settings (power limit, ECC, MIG, persistence mode, locked clocks). Recorded with every bench
// result ("environment" in the JSON); `gpurun compare` warns when two results differ in them.
#include <string>
#include <utility>
#include <vector>

namespace gpurun::bench {

/// Name → value, in a fixed order.
using Environment = std::vector<std::pair<std::string, std::string>>;

/// This process and machine: gpurun's version and build, the CPU model and count, the OS.
[[nodiscard]] Environment host_environment();

/// One line per setting present in both and different ("power_limit_w: 700 in the baseline, 500
/// in the new file"), in the baseline's order. Settings either side lacks are not compared.
[[nodiscard]] std::vector<std::string> environment_differences(const Environment& baseline,
                                                               const Environment& fresh);

} // namespace gpurun::bench
