#include "pipeline/target.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/stub_device.hpp"

namespace gpurun {
namespace {

class FakeBackend final : public Backend {
public:
  FakeBackend(std::string name, std::vector<Language> languages, bool available)
      : m_name(std::move(name)), m_languages(std::move(languages)), m_available(available) {}
  [[nodiscard]] std::string name() const override { return m_name; }
  [[nodiscard]] ProbeResult probe() override {
    return {m_available, m_available ? "" : "no device"};
  }
  [[nodiscard]] std::vector<Device*> devices() override {
    return m_available ? std::vector<Device*>{&m_device} : std::vector<Device*>{};
  }
  [[nodiscard]] std::vector<Language> languages() const override { return m_languages; }

private:
  std::string m_name;
  std::vector<Language> m_languages;
  bool m_available;
  test::StubDevice m_device;
};

// The registry's order: cuda, hip, cpu; cuda also compiles .hip (through the HIP layer).
BackendRegistry registry(bool cuda, bool hip) {
  std::vector<std::unique_ptr<Backend>> list;
  list.push_back(std::make_unique<FakeBackend>(
      "cuda", std::vector{Language::cuda, Language::ptx, Language::hip}, cuda));
  list.push_back(std::make_unique<FakeBackend>("hip", std::vector{Language::hip}, hip));
  list.push_back(std::make_unique<FakeBackend>(
      "cpu", std::vector{Language::cuda, Language::hip, Language::ptx}, true));
  return BackendRegistry(std::move(list));
}

std::string chosen(const BackendRegistry& r, Language language) {
  return select_target(r, {"auto", 0, language}).backend_name();
}

TEST(Target, HipSourcePrefersTheHipBackendThenCudaThenCpu) {
  EXPECT_EQ(chosen(registry(true, true), Language::hip), "hip");
  EXPECT_EQ(chosen(registry(true, false), Language::hip), "cuda");
  EXPECT_EQ(chosen(registry(false, false), Language::hip), "cpu");
  EXPECT_EQ(chosen(registry(false, true), Language::hip), "hip");
}

TEST(Target, CudaSourceNeverGoesToTheHipBackend) {
  EXPECT_EQ(chosen(registry(true, true), Language::cuda), "cuda");
  EXPECT_EQ(chosen(registry(false, true), Language::cuda), "cpu");
}

TEST(Target, ExplicitBackendThatCannotCompileTheLanguageIsAUsageError) {
  const auto r = registry(true, true);
  try {
    (void)select_target(r, {"hip", 0, Language::cuda});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("--backend hip: cannot run cuda sources"),
              std::string::npos)
        << e.what();
  }
}

TEST(Target, ExplicitUnavailableBackendIsExit5WithTheReason) {
  const auto r = registry(true, false);
  try {
    (void)select_target(r, {"hip", 0, Language::hip});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unavailable);
    EXPECT_NE(std::string(e.what()).find("--backend hip: unavailable: no device"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace gpurun
