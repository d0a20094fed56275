#pragma once
// JSON documents as text, whatever bytes their strings hold. Paths, kernel names, axis values and
// device printf output are bytes, not necessarily UTF-8, and nlohmann's dump() throws on a byte
// that is not; every JSON gpurun prints or writes goes through json_text, which writes such bytes
// as U+FFFD instead.
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace gpurun {

/// The document as text: on one line when `indent` < 0, else `indent` spaces per level.
[[nodiscard]] std::string json_text(const nlohmann::json& document, int indent = -1);
[[nodiscard]] std::string json_text(const nlohmann::ordered_json& document, int indent = -1);

} // namespace gpurun
