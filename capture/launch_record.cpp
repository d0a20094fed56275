#include "capture/launch_record.hpp"

#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"

namespace gpurun::capture {

namespace {

using nlohmann::ordered_json;

std::string memory_file(std::size_t index, const char* when) {
  return fmt::format("memory/a{}.{}.bin", index, when);
}

} // namespace

std::optional<std::size_t> memory_index(const LaunchRecord& record, const FoundPointer& pointer) {
  std::vector<MemoryWindow> windows;
  for (const auto& m : record.memory)
    windows.push_back(m.window);
  return window_index(windows, pointer);
}

std::string image_file_name(kit::ImageKind kind) {
  switch (kind) {
  case kit::ImageKind::ptx:
    return "module.ptx";
  case kit::ImageKind::cubin:
    return "module.cubin";
  case kit::ImageKind::fatbin:
    return "module.fatbin";
  case kit::ImageKind::fatbin_wrapper:
  case kit::ImageKind::unknown:
    break;
  }
  return "module.bin";
}

void write_capture(const std::filesystem::path& dir, const LaunchRecord& record) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "memory", ec);
  if (ec)
    throw usage_error(
        fmt::format("{}: cannot make the capture folder: {}", dir.string(), ec.message()));
  const std::string image = image_file_name(record.image_kind);
  write_file_atomic(dir / image, record.image);
  write_file_atomic(dir / "params.bin", record.params);

  ordered_json slots = ordered_json::array();
  for (const auto& s : record.slots)
    slots.push_back({{"offset", s.offset}, {"size", s.size}});
  ordered_json memory = ordered_json::array();
  for (std::size_t i = 0; i < record.memory.size(); ++i) {
    const CapturedMemory& m = record.memory[i];
    write_file_atomic(dir / memory_file(i, "before"), m.before);
    write_file_atomic(dir / memory_file(i, "after"), m.after);
    memory.push_back({{"name", fmt::format("a{}", i)},
                      {"kind", std::string(to_string(m.allocation.kind))},
                      {"address", m.allocation.base},
                      {"size", m.allocation.size},
                      {"saved", m.saved},
                      {"before", memory_file(i, "before")},
                      {"after", memory_file(i, "after")}});
  }
  ordered_json pointers = ordered_json::array();
  for (const auto& p : record.pointers)
    pointers.push_back({{"param", p.param},
                        {"offset_in_param", p.offset_in_param},
                        {"memory", fmt::format("a{}", memory_index(record, p).value_or(0))},
                        {"offset", p.offset_in_allocation}});
  const ordered_json doc{{"kernel", record.kernel},
                         {"launch", record.ordinal},
                         {"grid", record.grid},
                         {"block", record.block},
                         {"shared_bytes", record.shared_bytes},
                         {"module", image},
                         {"module_kind", std::string(kit::to_string(record.image_kind))},
                         {"device", record.device},
                         {"arch", record.arch},
                         {"params", "params.bin"},
                         {"param_slots", slots},
                         {"pointers", pointers},
                         {"memory", memory},
                         {"complete", record.incomplete.empty()},
                         {"incomplete", record.incomplete}};
  write_file_atomic(dir / "launch.json", json_text(doc, 2) + "\n");
}

} // namespace gpurun::capture
