#pragma once
// Which gfx targets the installed code object manager (libamd_comgr, what hipRTC compiles with)
// knows. hipRTC of ROCm 5.2 does not refuse a target its comgr lacks: it crashes the process.
// Asking comgr first turns that into a compile error that lists the targets it does know.
#include <optional>
#include <string>
#include <vector>

namespace gpurun::hiprtc {

struct ComgrTargets {
  std::string library;                 ///< the file opened
  std::string version;                 ///< "2.4"
  std::vector<std::string> processors; ///< "gfx600" … "gfx1036", as comgr lists them
};

/// The targets of the comgr that hipRTC would use; std::nullopt when none can be opened (then
/// hipRTC itself is left to judge the target).
[[nodiscard]] const std::optional<ComgrTargets>& comgr_targets();

} // namespace gpurun::hiprtc
