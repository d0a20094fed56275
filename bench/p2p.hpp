#pragma once
// `bench --p2p`: the copy bandwidth between every ordered pair of devices (docs/multi-gpu.md).
// Each device gets one context and a source and a destination buffer; a copy from device i to
// device j goes directly where the driver grants i access to j's memory (Context::
// enable_peer_access: NVLink or PCIe peer access on CUDA, a memcpy between the CPU backend's
// virtual devices) and is staged through host memory otherwise. The diagonal is a copy within
// one device. Every copy is timed on the host clock from enqueue until its bytes have arrived,
// the same way on every path, and the median of the repeats is kept.
#include <cstddef>
#include <vector>

#include "bench/report.hpp"
#include "pipeline/target.hpp"

namespace gpurun::bench {

struct PeerOptions {
  /// Bytes per copy; 0: 256 MiB on a GPU (at most an eighth of its memory), 8 MiB on the CPU
  /// backend, whose copies are memcpy calls.
  std::size_t bytes = 0;
  int repeats = 10; ///< timed copies per pair, after one untimed
};

/// The matrix over `targets` (devices of one backend) in the order given. A device that cannot
/// make a context or allocate fails its row and column; a copy that fails fails its pair; either
/// is one line in `errors`, and the other pairs are measured.
[[nodiscard]] PeerMatrix measure_p2p(const std::vector<Target>& targets,
                                     const PeerOptions& options = {});

} // namespace gpurun::bench
