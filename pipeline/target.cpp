#include "pipeline/target.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "base/error.hpp"
#include "pipeline/language.hpp"

namespace gpurun {

namespace {

constexpr const char* known_backends[] = {"cuda", "hip", "opencl", "metal", "cpu"};

bool compiles(const Backend& backend, const std::optional<Language>& language) {
  if (!language)
    return true;
  const auto languages = backend.languages();
  return std::find(languages.begin(), languages.end(), *language) != languages.end();
}

std::string language_list(const Backend& backend) {
  std::vector<std::string> names;
  for (Language l : backend.languages())
    names.emplace_back(language_name(l));
  return fmt::format("{}", fmt::join(names, ", "));
}

Backend& named_backend(const BackendRegistry& registry, const TargetRequest& request) {
  Backend* backend = registry.find(request.backend);
  if (backend == nullptr) {
    for (const auto& left_out : left_out_backends())
      if (request.backend == left_out.name)
        throw unavailable_error(fmt::format("--backend {}: not built into this gpurun: {}",
                                            request.backend, left_out.reason));
    for (const char* known : known_backends)
      if (request.backend == known)
        throw unavailable_error(
            fmt::format("--backend {}: not built into this gpurun", request.backend));
    throw usage_error(
        fmt::format("--backend '{}': unknown backend (auto, cuda, hip, opencl, cpu)", request.backend));
  }
  if (!compiles(*backend, request.language))
    throw usage_error(fmt::format("--backend {}: cannot run {} sources (it takes {})",
                                  request.backend, language_name(*request.language),
                                  language_list(*backend)));
  const auto probe = backend->probe();
  if (!probe.available)
    throw unavailable_error(
        fmt::format("--backend {}: unavailable: {}", request.backend, probe.reason));
  return *backend;
}

// Whether the language is the backend's own (the first it lists): .hip is HIP's own and CUDA's
// second language, so a .hip kernel runs on an AMD GPU where there is one, else on NVIDIA.
bool own_language(const Backend& backend, const std::optional<Language>& language) {
  const auto languages = backend.languages();
  return language && !languages.empty() && languages.front() == *language;
}

// Without a language (`threads` without --run: a device lends its warp size and limits), a
// backend of CUDA's thread model: one that runs CUDA, HIP or PTX, not an OpenCL platform.
bool cuda_model(const Backend& backend) {
  return compiles(backend, Language::cuda) || compiles(backend, Language::hip) ||
         compiles(backend, Language::ptx);
}

Backend& automatic_backend(const BackendRegistry& registry, const TargetRequest& request) {
  for (const auto& backend : registry.all())
    if (backend->name() != "cpu" && own_language(*backend, request.language) &&
        backend->probe().available)
      return *backend;
  for (const auto& backend : registry.all())
    if (backend->name() != "cpu" && compiles(*backend, request.language) &&
        (request.language || cuda_model(*backend)) && backend->probe().available)
      return *backend;
  Backend* cpu = registry.find("cpu");
  if (cpu != nullptr && compiles(*cpu, request.language))
    return *cpu;
  throw unavailable_error(fmt::format("no available backend runs {} sources",
                                      language_name(request.language.value_or(Language::cuda))));
}

} // namespace

std::string Target::label() const {
  return fmt::format("{}:{} ({})", backend->name(), device_index, device->properties().name);
}

Target select_target(const BackendRegistry& registry, const TargetRequest& request) {
  Backend& backend = request.backend.empty() || request.backend == "auto"
                         ? automatic_backend(registry, request)
                         : named_backend(registry, request);
  const auto devices = backend.devices();
  if (request.device < 0 || static_cast<std::size_t>(request.device) >= devices.size())
    throw unavailable_error(fmt::format("--device {}: {} has {} device(s)", request.device,
                                        backend.name(), devices.size()));
  return Target{&backend, devices[static_cast<std::size_t>(request.device)], request.device};
}

} // namespace gpurun
