#pragma once
// Errors and the exit codes they map to (docs/exit-codes.md).
#include <stdexcept>
#include <string>

namespace gpurun {

/// Documented process exit codes.
enum class ExitCode : int {
  ok = 0,
  check_failed = 1, ///< a check or a regression failed
  usage = 2,        ///< usage or spec error
  compile = 3,      ///< kernel compile error
  device = 4,       ///< device or launch error (fault, OOM, limits, memcheck finding)
  unavailable = 5,  ///< requested backend or device unavailable
  timeout = 124,    ///< watchdog timeout
};

/// Base error: a one-line message and the exit code it maps to.
class Error : public std::runtime_error {
public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  [[nodiscard]] ExitCode code() const noexcept { return m_code; }
  [[nodiscard]] int exit_code() const noexcept { return static_cast<int>(m_code); }

private:
  ExitCode m_code;
};

/// Convenience constructors so call sites read as the category.
[[nodiscard]] inline Error usage_error(const std::string& m) {
  return Error(ExitCode::usage, m);
}
[[nodiscard]] inline Error device_error(const std::string& m) {
  return Error(ExitCode::device, m);
}
[[nodiscard]] inline Error unavailable_error(const std::string& m) {
  return Error(ExitCode::unavailable, m);
}

/// A kernel compile error. The compiler's log is kept as a field, apart from the one-line message
/// (the JSON error document carries both); what() is the message followed by the log.
class CompileError : public Error {
public:
  CompileError(const std::string& message, std::string log)
      : Error(ExitCode::compile, log.empty() ? message : message + "\n" + log),
        m_log(std::move(log)) {}
  [[nodiscard]] const std::string& log() const noexcept { return m_log; }

private:
  std::string m_log;
};

/// An error raised by a vendor runtime call: keeps the native status as a field.
class BackendError : public Error {
public:
  BackendError(ExitCode code, std::string backend, std::string call, long native_code,
               std::string native_name, const std::string& message, const char* file, int line)
      : Error(code, message), m_backend(std::move(backend)), m_call(std::move(call)),
        m_native_code(native_code), m_native_name(std::move(native_name)), m_file(file),
        m_line(line) {}
  [[nodiscard]] const std::string& backend() const noexcept { return m_backend; }
  [[nodiscard]] const std::string& call() const noexcept { return m_call; }
  [[nodiscard]] long native_code() const noexcept { return m_native_code; }
  [[nodiscard]] const std::string& native_name() const noexcept { return m_native_name; }
  [[nodiscard]] const char* file() const noexcept { return m_file; }
  [[nodiscard]] int line() const noexcept { return m_line; }

private:
  std::string m_backend;
  std::string m_call;
  long m_native_code;
  std::string m_native_name;
  const char* m_file;
  int m_line;
};

} // namespace gpurun
