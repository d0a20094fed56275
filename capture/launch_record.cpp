#include "capture/launch_record.hpp"

#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/npy.hpp"
#include "capture/replay_spec.hpp"

namespace gpurun::capture {

namespace {

using nlohmann::ordered_json;

std::string memory_file(std::size_t index, const char* when) {
  return fmt::format("memory/a{}.{}.npy", index, when);
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
    const DType dtype = window_dtype(record, i);
    write_npy(dir / memory_file(i, "before"), as_buffer(m.before, dtype));
    write_npy(dir / memory_file(i, "after"), as_buffer(m.after, dtype));
    memory.push_back({{"name", fmt::format("a{}", i)},
                      {"kind", std::string(to_string(m.window.allocation.kind))},
                      {"address", m.window.allocation.base},
                      {"size", m.window.allocation.size},
                      {"offset", m.window.offset},
                      {"saved", m.window.saved},
                      {"dtype", std::string(dtype_name(dtype))},
                      {"before", memory_file(i, "before")},
                      {"after", memory_file(i, "after")}});
  }
  ordered_json pointers = ordered_json::array();
  for (const auto& p : record.pointers) {
    const auto k = memory_index(record, p);
    if (!k)
      continue; // every pointer has its window (plan_memory)
    pointers.push_back({{"param", p.param},
                        {"offset_in_param", p.offset_in_param},
                        {"memory", fmt::format("a{}", *k)},
                        {"offset", p.offset_in_allocation - record.memory[*k].window.offset}});
  }
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
  write_file_atomic(dir / "capture.json", json_text(replay_spec(record), 2) + "\n");
}

} // namespace gpurun::capture
