#pragma once
// For the tests that compare gpurun's own declarations of a vendor API (cuda/driver_types.hpp,
// compilers/nvrtc_types.hpp, compilers/hiprtc_types.hpp) with the vendor's header, where the
// build found one: a wrong parameter type, a missing const or a wrong enumerator value would make
// gpurun call the library with the wrong ABI.
#include <type_traits>

namespace gpurun::test {

/// as_header_t<Declared, T>: T with every type gpurun declares replaced by the header's type of
/// the same name, through pointers, const and function-pointer signatures; equal to the header's
/// type exactly when the two declarations agree. Declared<U>::type is the header's type for each
/// declared U (a test specializes it) and U itself for every other.
template <template <class> class Declared, class T> struct as_header {
  using type = typename Declared<T>::type;
};
template <template <class> class Declared, class T>
using as_header_t = typename as_header<Declared, T>::type;
template <template <class> class Declared, class T> struct as_header<Declared, T*> {
  using type = as_header_t<Declared, T>*;
};
template <template <class> class Declared, class T> struct as_header<Declared, const T> {
  using type = const as_header_t<Declared, T>;
};
template <template <class> class Declared, class R, class... Args>
struct as_header<Declared, R (*)(Args...)> {
  using type = as_header_t<Declared, R> (*)(as_header_t<Declared, Args>...);
};

/// The ABI of an enum passed by value: its size and alignment.
template <class Ours, class Theirs> constexpr bool same_layout() {
  return sizeof(Ours) == sizeof(Theirs) && alignof(Ours) == alignof(Theirs);
}

} // namespace gpurun::test

// X-macro entries for a test that defines as_header_t<T> for its API: the enumerator `name` has
// the header's value and `value`; `function##_fn` has the signature of the header's `function`
// (what the header maps the name to, for the driver's versioned symbols).
#define GPURUN_TEST_SAME_VALUE(name, value)                                                        \
  static_assert(static_cast<long long>(name) == static_cast<long long>(::name), #name);            \
  static_assert(static_cast<long long>(name) == (value), #name);
#define GPURUN_TEST_SAME_SIGNATURE(function, ...)                                                  \
  static_assert(std::is_same_v<as_header_t<function##_fn>, decltype(&::function)>, #function);
