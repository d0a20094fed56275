#pragma once
// Typed reads of one JSON object's members for the readers of gpurun's documents: each read
// names the file and the field ("r.json: benchmarks[3].gpurun.samples_s: expected an array") in
// the usage Error it throws for a member of the wrong type or a required one that is missing. An
// absent member and a null one are the same.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace gpurun {

/// Throws usage Error "LABEL: FIELD: WHAT".
[[noreturn]] void invalid_field(std::string_view label, std::string_view field,
                                std::string_view what);

/// The member `key` of `object` (an object), or nullptr when it is absent or null.
[[nodiscard]] const nlohmann::json* json_member(const nlohmann::json& object, const char* key);

class JsonFields {
public:
  /// `where` names the object in errors ("benchmarks[3]"; "" for the document itself). Throws
  /// when `object` is not an object.
  JsonFields(std::string_view label, const nlohmann::json& object, std::string where);

  /// "WHERE.KEY" (or "KEY" at the top).
  [[nodiscard]] std::string field(std::string_view key) const;
  [[nodiscard]] const nlohmann::json* find(const char* key) const;

  [[nodiscard]] std::optional<std::string> text(const char* key) const;
  [[nodiscard]] std::string required_text(const char* key) const;
  [[nodiscard]] std::string text_or_empty(const char* key) const;
  [[nodiscard]] std::optional<bool> flag(const char* key) const;
  [[nodiscard]] std::optional<double> number(const char* key) const;
  [[nodiscard]] double required_number(const char* key) const;
  /// A whole number ≥ 0, up to 2^64 − 1.
  [[nodiscard]] std::optional<std::size_t> count(const char* key) const;
  [[nodiscard]] std::size_t required_count(const char* key) const;
  [[nodiscard]] std::optional<long long> integer(const char* key) const;
  /// A member that must be an object or an array when present.
  [[nodiscard]] const nlohmann::json* object(const char* key) const;
  [[nodiscard]] const nlohmann::json* array(const char* key) const;
  [[nodiscard]] std::string_view label() const { return m_label; }
  [[nodiscard]] const std::string& where() const { return m_where; }

private:
  std::string_view m_label;
  const nlohmann::json& m_object;
  std::string m_where;
};

} // namespace gpurun
