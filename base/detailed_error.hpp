#pragma once
// An error whose one-line message is followed by lines of details (the sanitizers' findings):
// stderr shows the message on the `gpurun: error:` line and each detail on a line of its own;
// the JSON error document carries the details as `error.details` (joined) and `error.findings`
// (one string each). what() is the message, a newline and the details.
#include <string>
#include <vector>

#include "base/error.hpp"

namespace gpurun {

class DetailedError : public Error {
public:
  DetailedError(ExitCode code, const std::string& message, std::vector<std::string> details)
      : Error(code, message + join(details)), m_message(message), m_details(std::move(details)) {}
  [[nodiscard]] const std::string& message() const noexcept { return m_message; }
  [[nodiscard]] const std::vector<std::string>& details() const noexcept { return m_details; }

private:
  static std::string join(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines)
      text += "\n" + line;
    return text;
  }
  std::string m_message;
  std::vector<std::string> m_details;
};

} // namespace gpurun
