#pragma once
// The kit's pieces for driver-shaped APIs (CUDA's driver API, HIP's runtime: a device, a stream
// made on it, events recorded on the stream) are templates over the API's traits: each piece is
// written once and calls the vendor's functions through the backend's own dlsym table. A backend
// describes its API once (cuda/api_traits.hpp, hip/api_traits.hpp); no vendor header is needed
// here.
#include <concepts>
#include <string>
#include <string_view>

#include "backends/kit/call_signature.hpp"
#include "base/error.hpp"

namespace gpurun::kit {

/// The status type and the stream and event handles of an API, as the calls of its dlsym table
/// take them. The table has the members event_destroy, event_record, event_synchronize,
/// event_elapsed_time, stream_query and stream_synchronize, with the vendor's signatures.
template <class Api> struct ApiTypes {
  using Result = typename CallSignature<decltype(Api::stream_query)>::result;
  using Stream = typename CallSignature<decltype(Api::stream_query)>::first_argument;
  using Event = typename CallSignature<decltype(Api::event_destroy)>::first_argument;
};

/// What the kit needs of a driver-shaped API besides its table (`Api`): the codes for success
/// and for work still running, the prefix of its calls' names (both APIs name their calls alike:
/// cuEventRecord, hipEventRecord), how an event is made, and how a failed call is raised (the
/// backend's BackendError: result, call, exit code, message, file, line).
template <class T>
concept DriverTraits = requires(const typename T::Api& api,
                                typename ApiTypes<typename T::Api>::Event* event,
                                typename ApiTypes<typename T::Api>::Result result) {
  { T::success } -> std::convertible_to<typename ApiTypes<typename T::Api>::Result>;
  { T::not_ready } -> std::convertible_to<typename ApiTypes<typename T::Api>::Result>;
  { T::call_prefix } -> std::convertible_to<std::string_view>;
  { T::create_event(api, event) } -> std::same_as<typename ApiTypes<typename T::Api>::Result>;
  T::raise(result, "call", ExitCode::device, std::string_view(), "file", 0);
};

/// "cuEventRecord" for "EventRecord": a call's name as errors give it.
template <DriverTraits T> [[nodiscard]] std::string call_name(std::string_view call) {
  return std::string(T::call_prefix).append(call);
}

/// Raises a failed call as the backend's own checks do: BackendError(device) "<call> failed: …".
/// The caller's file and line come from __builtin_FILE/__builtin_LINE: clang 14 with libstdc++ 12
/// (Debian 12's sanitized build) has no std::source_location.
template <DriverTraits T>
void check(typename ApiTypes<typename T::Api>::Result result, std::string_view call,
           const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  if (result == T::success)
    return;
  const std::string name = call_name<T>(call);
  T::raise(result, name.c_str(), ExitCode::device, name + " failed", file, line);
}

} // namespace gpurun::kit
