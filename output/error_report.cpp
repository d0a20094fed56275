#include "output/error_report.hpp"

#include <nlohmann/json.hpp>

#include "output/compile_log.hpp"

#include "base/detailed_error.hpp"
#include "base/format.hpp"
#include "base/json_text.hpp"

namespace gpurun {

ExitCode exit_code_of(const std::exception& error) noexcept {
  if (const auto* e = dynamic_cast<const Error*>(&error))
    return e->code();
  return ExitCode::device;
}

std::string_view category_name(ExitCode code) noexcept {
  switch (code) {
  case ExitCode::ok:
    return "ok";
  case ExitCode::check_failed:
    return "check_failed";
  case ExitCode::usage:
    return "usage";
  case ExitCode::compile:
    return "compile";
  case ExitCode::device:
    return "device";
  case ExitCode::unavailable:
    return "unavailable";
  case ExitCode::timeout:
    return "timeout";
  }
  return "internal";
}

nlohmann::ordered_json error_document(const std::exception& error,
                                      const std::optional<std::string>& device_output) {
  const auto* gpurun_error = dynamic_cast<const Error*>(&error);
  const ExitCode code = exit_code_of(error);

  // Kernels by the names their authors gave them, not their symbols.
  const std::string what = with_kernel_names(error.what());
  const auto line_end = what.find('\n');
  nlohmann::ordered_json body;
  body["category"] = gpurun_error != nullptr ? category_name(code) : "internal";
  body["message"] = what.substr(0, line_end);
  if (const auto* compile = dynamic_cast<const CompileError*>(&error)) {
    body["log"] = without_jit_hints(compile->log());
  } else if (line_end != std::string::npos) {
    body["details"] = what.substr(line_end + 1);
  }
  if (const auto* detailed = dynamic_cast<const DetailedError*>(&error)) {
    std::vector<std::string> findings;
    for (const auto& line : detailed->details())
      findings.push_back(with_kernel_names(line));
    body["findings"] = std::move(findings);
  }
  if (const auto* backend = dynamic_cast<const BackendError*>(&error)) {
    body["backend"] = backend->backend();
    body["call"] = backend->call();
    body["native_code"] = backend->native_code();
    body["native_name"] = backend->native_name();
    body["file"] = backend->file() != nullptr ? backend->file() : "";
    body["line"] = backend->line();
  }

  nlohmann::ordered_json document;
  document["status"] = "error";
  document["exit_code"] = static_cast<int>(code);
  document["error"] = std::move(body);
  if (device_output)
    document["device_output"] = *device_output;
  return document;
}

std::string dump_document(const nlohmann::ordered_json& document) {
  return json_text(document, 2);
}

std::string dump_document(const nlohmann::json& document) {
  return json_text(document, 2);
}

} // namespace gpurun
