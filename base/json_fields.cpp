#include "base/json_fields.hpp"

#include <cstdint>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace gpurun {

using nlohmann::json;

void invalid_field(std::string_view label, std::string_view field, std::string_view what) {
  throw usage_error(fmt::format("{}: {}: {}", label, field, what));
}

const json* json_member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

JsonFields::JsonFields(std::string_view label, const json& object, std::string where)
    : m_label(label), m_object(object), m_where(std::move(where)) {
  if (!object.is_object()) {
    if (m_where.empty())
      throw usage_error(fmt::format("{}: not a JSON object", m_label));
    invalid_field(m_label, m_where, "expected an object");
  }
}

std::string JsonFields::field(std::string_view key) const {
  return m_where.empty() ? std::string(key) : fmt::format("{}.{}", m_where, key);
}

const json* JsonFields::find(const char* key) const {
  return json_member(m_object, key);
}

std::optional<std::string> JsonFields::text(const char* key) const {
  const json* v = find(key);
  if (!v)
    return std::nullopt;
  if (!v->is_string())
    invalid_field(m_label, field(key), "expected a string");
  return v->get<std::string>();
}

std::string JsonFields::required_text(const char* key) const {
  auto v = text(key);
  if (!v)
    invalid_field(m_label, field(key), "missing");
  return *v;
}

std::string JsonFields::text_or_empty(const char* key) const {
  return text(key).value_or("");
}

std::optional<bool> JsonFields::flag(const char* key) const {
  const json* v = find(key);
  if (!v)
    return std::nullopt;
  if (!v->is_boolean())
    invalid_field(m_label, field(key), "expected true or false");
  return v->get<bool>();
}

std::optional<double> JsonFields::number(const char* key) const {
  const json* v = find(key);
  if (!v)
    return std::nullopt;
  if (!v->is_number())
    invalid_field(m_label, field(key), "expected a number");
  return v->get<double>();
}

double JsonFields::required_number(const char* key) const {
  if (!find(key))
    invalid_field(m_label, field(key), "missing");
  return *number(key);
}

std::optional<std::size_t> JsonFields::count(const char* key) const {
  const json* v = find(key);
  if (!v)
    return std::nullopt;
  // Counts up to 2^64 - 1 (--shard 0/18446744073709551615) are unsigned: no signed read of them.
  if (v->is_number_unsigned())
    return v->get<std::size_t>();
  if (!v->is_number_integer() || v->get<std::int64_t>() < 0)
    invalid_field(m_label, field(key), "expected a whole number ≥ 0");
  return static_cast<std::size_t>(v->get<std::int64_t>());
}

std::size_t JsonFields::required_count(const char* key) const {
  const auto v = count(key);
  if (!v)
    invalid_field(m_label, field(key), "missing");
  return *v;
}

std::optional<long long> JsonFields::integer(const char* key) const {
  const json* v = find(key);
  if (!v)
    return std::nullopt;
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::numeric_limits<long long>::max())
    invalid_field(m_label, field(key), "too large");
  if (!v->is_number_integer())
    invalid_field(m_label, field(key), "expected a whole number");
  return v->get<long long>();
}

const json* JsonFields::object(const char* key) const {
  const json* v = find(key);
  if (v && !v->is_object())
    invalid_field(m_label, field(key), "expected an object");
  return v;
}

const json* JsonFields::array(const char* key) const {
  const json* v = find(key);
  if (v && !v->is_array())
    invalid_field(m_label, field(key), "expected an array");
  return v;
}

} // namespace gpurun
