#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun {

/// Every backend this build has, in the one explicit order: GPU backends first, cpu last.
[[nodiscard]] std::vector<std::unique_ptr<Backend>> make_backends();

/// A backend this build left out, and why ("no HIP headers at build time …").
struct LeftOutBackend {
  std::string name;
  std::string reason;
};

/// The backends gpurun knows but this build does not have, so that `gpurun devices` and
/// `--backend NAME` can say why.
[[nodiscard]] std::vector<LeftOutBackend> left_out_backends();

/// The backends plus lookup; owns them for the life of the process.
class BackendRegistry {
public:
  BackendRegistry() : m_backends(make_backends()) {}
  /// These backends, in this order (tests build one of stand-ins).
  explicit BackendRegistry(std::vector<std::unique_ptr<Backend>> backends)
      : m_backends(std::move(backends)) {}
  [[nodiscard]] const std::vector<std::unique_ptr<Backend>>& all() const { return m_backends; }
  /// nullptr when this build has no backend of that name.
  [[nodiscard]] Backend* find(const std::string& name) const;

private:
  std::vector<std::unique_ptr<Backend>> m_backends;
};

} // namespace gpurun
