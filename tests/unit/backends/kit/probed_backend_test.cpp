#include "backends/kit/probed_backend.hpp"

#include <gtest/gtest.h>

#include "support/stub_device.hpp"

namespace gpurun {
namespace {

// A backend whose probe answers `answer` and which has `count` devices, counting the calls.
class StubBackend final : public kit::ProbedBackend<Backend> {
public:
  StubBackend(ProbeResult answer, int count) : m_answer(std::move(answer)), m_count(count) {}
  [[nodiscard]] std::string name() const override { return "stub"; }
  [[nodiscard]] std::vector<Language> languages() const override { return {}; }

  int probes = 0;
  int enumerations = 0;

private:
  [[nodiscard]] ProbeResult run_probe() override {
    ++probes;
    return m_answer;
  }
  [[nodiscard]] std::vector<std::unique_ptr<Device>> enumerate() override {
    ++enumerations;
    std::vector<std::unique_ptr<Device>> devices;
    for (int i = 0; i < m_count; ++i)
      devices.push_back(std::make_unique<test::StubDevice>());
    return devices;
  }

  ProbeResult m_answer;
  int m_count;
};

TEST(ProbedBackend, ProbesOnceAndMakesTheDevicesOnce) {
  StubBackend backend({true, {}}, 2);
  EXPECT_TRUE(backend.probe().available);
  const auto first = backend.devices();
  const auto second = backend.devices();
  ASSERT_EQ(first.size(), 2U);
  EXPECT_EQ(first, second) << "the same devices every time";
  EXPECT_EQ(backend.probes, 1);
  EXPECT_EQ(backend.enumerations, 1);
}

TEST(ProbedBackend, AnUnavailableBackendHasNoDevicesAndSaysWhy) {
  StubBackend backend({false, "no device"}, 2);
  EXPECT_TRUE(backend.devices().empty());
  const ProbeResult probe = backend.probe();
  EXPECT_FALSE(probe.available);
  EXPECT_EQ(probe.reason, "no device");
  EXPECT_EQ(backend.probes, 1);
  EXPECT_EQ(backend.enumerations, 0);
}

} // namespace
} // namespace gpurun
