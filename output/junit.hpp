#pragma once
// JUnit XML, the test report format CI systems read (GitHub Actions' test reporters, GitLab's
// artifacts:reports:junit, Jenkins): `run --junit` (each --expect a test case), `bench --junit`
// (each case), `compare --junit` (each case; a regression is a failure).
#include <optional>
#include <string>
#include <vector>

namespace gpurun {

struct JunitCase {
  std::string name;
  std::string classname;              ///< the suite or kernel it belongs to
  double seconds = 0;                 ///< time taken (the kernel's, for a measured case)
  std::optional<std::string> failure; ///< it ran and was wrong (a check, a regression)
  std::optional<std::string> error;   ///< it could not run (a compile error, a fault)
  std::optional<std::string> skipped;
};

/// One <testsuites> document with one <testsuite> named `suite`.
[[nodiscard]] std::string junit_xml(const std::string& suite, const std::vector<JunitCase>& cases);

} // namespace gpurun
