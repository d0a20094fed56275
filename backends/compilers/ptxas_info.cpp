#include "backends/compilers/ptxas_info.hpp"

#include <cstdlib>
#include <regex>
#include <string>

namespace gpurun {

namespace {

/// The number in front of `unit` in `text` ("10 registers" → 10), or -1.
long long number_before(const std::string& text, const std::string& unit) {
  const std::regex pattern("(\\d+) " + unit);
  std::smatch m;
  if (!std::regex_search(text, m, pattern))
    return -1;
  return std::atoll(m[1].str().c_str());
}

std::size_t size_or_zero(long long v) {
  return v < 0 ? 0 : static_cast<std::size_t>(v);
}

} // namespace

std::vector<PtxasKernelInfo> parse_ptxas_info(std::string_view log) {
  static const std::regex entry("Compiling entry function '([^']+)' for '([^']+)'");
  static const std::regex properties("Function properties for (\\S+)");
  std::vector<PtxasKernelInfo> kernels;
  // "Function properties" blocks also describe non-inlined device functions: only the entry's own
  // block sets its stack and spills; "Used …" always belongs to the entry being compiled.
  bool in_entry_block = false;
  std::size_t pos = 0;
  while (pos < log.size()) {
    std::size_t end = log.find('\n', pos);
    if (end == std::string_view::npos)
      end = log.size();
    const std::string line(log.substr(pos, end - pos));
    pos = end + 1;
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      kernels.push_back({m[1].str(), m[2].str()});
      in_entry_block = false;
      continue;
    }
    if (kernels.empty())
      continue;
    PtxasKernelInfo& current = kernels.back();
    if (std::regex_search(line, m, properties)) {
      in_entry_block = m[1].str() == current.name;
    } else if (line.find("stack frame") != std::string::npos) {
      if (!in_entry_block)
        continue;
      current.stack_frame_bytes = size_or_zero(number_before(line, "bytes stack frame"));
      current.spill_store_bytes = size_or_zero(number_before(line, "bytes spill stores"));
      current.spill_load_bytes = size_or_zero(number_before(line, "bytes spill loads"));
    } else if (line.find("Used ") != std::string::npos) {
      current.registers = static_cast<int>(number_before(line, "registers"));
      current.barriers = static_cast<int>(std::max(0LL, number_before(line, "barriers")));
      current.shared_bytes = size_or_zero(number_before(line, "bytes smem"));
      current.constant_bytes = size_or_zero(number_before(line, "bytes cmem\\[0\\]"));
    }
  }
  return kernels;
}

} // namespace gpurun
