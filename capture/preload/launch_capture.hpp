#pragma once
// Capturing a launch: every launch stand-in passes its launch through launch(), which looks the
// kernel up and counts the launch; for one the settings select it synchronizes, saves every
// allocation a pointer in the parameter bytes points into, launches, synchronizes, saves them
// again and writes the capture folder (capture/launch_record). Launches that are not selected
// cost only a table lookup.
#include <memory>

#include "capture/preload/driver_entry_points.hpp"

namespace gpurun::capture::preload {

struct Launch {
  const void* function;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
  cu::CUstream stream;
  void** params;
  void** extra;
};

/// The launch as the stand-in passes it on to the driver: a reference to the stand-in's callable
/// (a lambda living until the launch returns), not std::function, which may allocate at every
/// launch.
class LaunchCall {
public:
  template <class F>
  LaunchCall(const F& f) // implicit: the stand-ins pass their lambda
      : m_callable(std::addressof(f)),
        m_call([](const void* c) { return (*static_cast<const F*>(c))(); }) {}
  cu::CUresult operator()() const { return m_call(m_callable); }

private:
  const void* m_callable;
  cu::CUresult (*m_call)(const void*);
};

/// Runs the launch through `go`, capturing it when the settings select it; the launch's result.
cu::CUresult launch(const Launch& l, LaunchCall go);

} // namespace gpurun::capture::preload
