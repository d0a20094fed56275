#pragma once
// A Device with default properties and no contexts, for tests of what lists and picks devices.
#include "backends/backend.hpp"

namespace gpurun::test {

class StubDevice final : public Device {
public:
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions&) override {
    return nullptr;
  }

private:
  DeviceProperties m_properties;
};

} // namespace gpurun::test
