#pragma once
// One program of a runtime compiler shaped like NVRTC: NVRTC itself and hipRTC, whose APIs are
// the same calls under other names. Made from the source and in-memory headers with its name
// expressions, compiled, its log, code and lowered names read, and destroyed with the object.
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "backends/kit/call_signature.hpp"
#include "base/error.hpp"

namespace gpurun::compilers {

/// Headers the program includes from memory: names[i] is included as texts[i].
struct RtcHeaders {
  std::vector<const char*> names;
  std::vector<const char*> texts;
};

/// What a lowered name that cannot be read does: fail the compile, or leave the name out.
enum class MissingLoweredName { raise, leave_out };

/// `Rtc` describes the library: `Api`, its dlsym table (members create_program, destroy_program,
/// add_name_expression, compile_program, get_program_log_size, get_program_log,
/// get_lowered_name, whose types name its result codes and program handle), `success`, its
/// `name` in errors, which is also the prefix of its calls' names (nvrtcCreateProgram), and
/// `result_name(result)`.
template <class Rtc> class RtcProgram {
public:
  using Api = typename Rtc::Api;
  using Result = typename kit::CallSignature<decltype(Api::compile_program)>::result;
  using Handle = typename kit::CallSignature<decltype(Api::compile_program)>::first_argument;

  /// Creates the program and adds the name expressions whose lowered names will be asked for.
  RtcProgram(const Api& api, const std::string& source, const std::string& name, RtcHeaders headers,
             const std::vector<std::string>& name_expressions)
      : m_api(api), m_headers(std::move(headers)), m_program(nullptr, Destroy{&api}) {
    Handle raw = nullptr;
    check(api.create_program(&raw, source.c_str(), name.c_str(),
                             static_cast<int>(m_headers.names.size()), m_headers.texts.data(),
                             m_headers.names.data()),
          "CreateProgram");
    m_program.reset(raw);
    for (const auto& expression : name_expressions)
      check(api.add_name_expression(raw, expression.c_str()), "AddNameExpression");
  }

  /// The compile's own status: the caller tells the user's errors from the library's.
  [[nodiscard]] Result compile(const std::vector<std::string>& options) {
    std::vector<const char*> argv;
    for (const auto& option : options)
      argv.push_back(option.c_str());
    return m_api.compile_program(m_program.get(), static_cast<int>(argv.size()), argv.data());
  }

  /// The compile's log; empty when there is none or it cannot be read.
  [[nodiscard]] std::string log() const {
    std::size_t size = 0;
    if (m_api.get_program_log_size(m_program.get(), &size) != Rtc::success || size <= 1)
      return {};
    std::string text(size, '\0');
    if (m_api.get_program_log(m_program.get(), text.data()) != Rtc::success)
      return {};
    text.resize(std::strlen(text.c_str()));
    return text;
  }

  /// One of the compiled outputs (PTX, a cubin, a code object): its size from `get_size`, then
  /// its bytes from `get`, each named in errors without the library's prefix ("GetPTXSize").
  template <class GetSize, class Get>
  [[nodiscard]] std::vector<std::byte> output(GetSize get_size, std::string_view get_size_call,
                                              Get get, std::string_view get_call) const {
    std::size_t size = 0;
    check(get_size(m_program.get(), &size), get_size_call);
    std::vector<std::byte> out(size);
    check(get(m_program.get(), reinterpret_cast<char*>(out.data())), get_call);
    return out;
  }

  /// The mangled names of `name_expressions`, as added at creation.
  [[nodiscard]] std::map<std::string, std::string>
  lowered_names(const std::vector<std::string>& name_expressions,
                MissingLoweredName on_failure) const {
    std::map<std::string, std::string> names;
    for (const auto& expression : name_expressions) {
      const char* lowered = nullptr;
      const Result r = m_api.get_lowered_name(m_program.get(), expression.c_str(), &lowered);
      if (r != Rtc::success) {
        if (on_failure == MissingLoweredName::leave_out)
          continue;
        check(r, "GetLoweredName");
      }
      if (lowered != nullptr)
        names[expression] = lowered;
    }
    return names;
  }

  /// BackendError(device) "nvrtc<call> failed: NAME" unless `result` is success.
  static void check(Result result, std::string_view call) {
    if (result == Rtc::success)
      return;
    const std::string name = fmt::format("{}{}", Rtc::name, call);
    throw BackendError(
        ExitCode::device, Rtc::name, name, static_cast<long>(result), Rtc::result_name(result),
        fmt::format("{} failed: {}", name, Rtc::result_name(result)), __FILE__, __LINE__);
  }

private:
  struct Destroy {
    const Api* api;
    void operator()(std::remove_pointer_t<Handle>* program) const noexcept {
      if (program != nullptr)
        (void)api->destroy_program(&program);
    }
  };

  const Api& m_api;
  RtcHeaders m_headers; ///< alive as long as the program, whatever the library keeps of them
  std::unique_ptr<std::remove_pointer_t<Handle>, Destroy> m_program;
};

} // namespace gpurun::compilers
