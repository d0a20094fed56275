#pragma once
// The types an API's calls take, read from its dlsym table: a member's function-pointer type
// names the API's status type and handles, so the table is where they are written once.
namespace gpurun::kit {

template <class Call> struct CallSignature;
template <class R, class First, class... Rest> struct CallSignature<R (*)(First, Rest...)> {
  using result = R;
  using first_argument = First;
};

} // namespace gpurun::kit
