// gpurun's CUDA layer for clang: cooperative groups (namespace cooperative_groups), as the CUDA
// Programming Guide describes them, over the layer's warp intrinsics: this_thread_block(),
// tiled_partition<N>() and thread_block_tile<N> (N a power of 2 up to 32), the dynamic
// tiled_partition(parent, n), coalesced_threads(), this_grid() and sync(group). reduce(), the
// scans and memcpy_async() are in cooperative_groups/reduce.h, scan.h and memcpy_async.h.
//
// Every group derives from thread_group, whose members dispatch on the kind of group it holds,
// so a tile or a block passes where a thread_group is expected, as with CUDA's classes. The
// lanes of a warp-level group are a mask; a tile's mask is the aligned run of N lanes holding
// the thread, so its rank is the lane's low bits.
#pragma once
#include "__gpurun_builtin_vars.h"
#include "__gpurun_defs.h"
#include "__gpurun_intrinsics.h"
#include "__gpurun_sync.h"
#include "__gpurun_warp.h"
#include "vector_types.h"

#define __GPURUN_CG__ __device__ __forceinline__

namespace cooperative_groups {
namespace __gpurun {

enum group_kind : unsigned int { block_kind, tile_kind, coalesced_kind, grid_kind };

__GPURUN_DEVICE__ unsigned int lane_id() {
  return __nvvm_read_ptx_sreg_laneid();
}
__GPURUN_DEVICE__ unsigned int lanes_below() {
  return __nvvm_read_ptx_sreg_lanemask_lt();
}
__GPURUN_DEVICE__ unsigned int block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__GPURUN_DEVICE__ unsigned int block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
// The aligned run of `n` lanes (a power of 2 up to 32) that holds the calling thread.
__GPURUN_DEVICE__ unsigned int tile_mask(unsigned int n) {
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1) << (lane_id() & ~(n - 1));
}
// The bits of `bits` at the lanes of `mask`, packed to bit 0, 1 … in lane order: what a
// coalesced group's ballot reports (bit i for the thread of rank i).
__GPURUN_DEVICE__ unsigned int pack_lanes(unsigned int bits, unsigned int mask) {
  if (mask == 0xffffffffu)
    return bits;
  unsigned int packed = 0;
  for (unsigned int rank = 0; mask != 0; ++rank) {
    const unsigned int lowest = mask & (0u - mask);
    if (bits & lowest)
      packed |= 1u << rank;
    mask ^= lowest;
  }
  return packed;
}
// The lane holding rank `rank` of the group `mask`.
__GPURUN_DEVICE__ unsigned int lane_of_rank(unsigned int mask, unsigned int rank) {
  return mask == 0xffffffffu ? rank : __fns(mask, 0, static_cast<int>(rank) + 1);
}
// The members of the group `mask` whose ranks share rank / n with `rank`: a tile of n consecutive
// ranks of a coalesced group (the last one may be short).
__GPURUN_DEVICE__ unsigned int rank_run(unsigned int mask, unsigned int rank, unsigned int n) {
  const unsigned int first = rank / n * n;
  const unsigned int end = first + n;
  const unsigned int below_end = end >= static_cast<unsigned int>(__popc(mask))
                                     ? 0xffffffffu
                                     : (1u << lane_of_rank(mask, end)) - 1;
  return mask & below_end & ~((1u << lane_of_rank(mask, first)) - 1);
}

enum shfl_kind { shfl_idx, shfl_up, shfl_down, shfl_bfly };

// A shuffle of any trivially copyable type, 32 bits at a time, within segments of `width` lanes
// (the control word as __gpurun_warp.h builds it).
template <shfl_kind Kind, class T>
__GPURUN_DEVICE__ T shfl(unsigned int mask, T value, unsigned int arg, unsigned int width) {
  static_assert(__is_trivially_copyable(T), "cooperative groups shuffle trivially copyable types");
  constexpr unsigned int words = (sizeof(T) + 3) / 4;
  int w[words] = {};
  __builtin_memcpy(w, &value, sizeof(T));
  const int control = static_cast<int>(((32 - width) << 8) | (Kind == shfl_up ? 0 : 0x1f));
  const int a = static_cast<int>(arg);
  for (unsigned int i = 0; i < words; ++i) {
    switch (Kind) {
    case shfl_idx:
      w[i] = __nvvm_shfl_sync_idx_i32(mask, w[i], a, control);
      break;
    case shfl_up:
      w[i] = __nvvm_shfl_sync_up_i32(mask, w[i], a, control);
      break;
    case shfl_down:
      w[i] = __nvvm_shfl_sync_down_i32(mask, w[i], a, control);
      break;
    case shfl_bfly:
      w[i] = __nvvm_shfl_sync_bfly_i32(mask, w[i], a, control);
      break;
    }
  }
  __builtin_memcpy(&value, w, sizeof(T));
  return value;
}

} // namespace __gpurun

// The group every other one converts to: its size, the caller's rank and a barrier, whatever
// the kind of group.
class thread_group {
public:
  __GPURUN_CG__ unsigned long long num_threads() const {
    switch (m_kind) {
    case __gpurun::block_kind:
      return __gpurun::block_threads();
    case __gpurun::grid_kind:
      return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
             __gpurun::block_threads();
    default:
      return __popc(m_mask);
    }
  }
  __GPURUN_CG__ unsigned long long size() const { return num_threads(); }
  __GPURUN_CG__ unsigned long long thread_rank() const {
    switch (m_kind) {
    case __gpurun::block_kind:
      return __gpurun::block_rank();
    case __gpurun::grid_kind:
      return ((static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
              blockIdx.x) *
                 __gpurun::block_threads() +
             __gpurun::block_rank();
    default:
      return __popc(m_mask & __gpurun::lanes_below());
    }
  }
  // A grid-wide barrier needs a cooperative launch, which gpurun does not make: the kernel
  // stops here rather than run on unsynchronized (see grid_group).
  __GPURUN_CG__ void sync() const {
    switch (m_kind) {
    case __gpurun::block_kind:
      __syncthreads();
      break;
    case __gpurun::grid_kind:
      __builtin_trap(); // grid_group::sync() without a cooperative launch
      break;
    default:
      __syncwarp(m_mask);
      break;
    }
  }
  // Without a cooperative launch a grid group is not valid (as on the GPU).
  __GPURUN_CG__ bool is_valid() const { return m_kind != __gpurun::grid_kind; }

protected:
  __GPURUN_CG__ thread_group(__gpurun::group_kind kind, unsigned int mask = 0,
                             unsigned int meta_rank = 0, unsigned int meta_size = 1)
      : m_kind(kind), m_mask(mask), m_meta_rank(meta_rank), m_meta_size(meta_size) {}

  __gpurun::group_kind m_kind;
  unsigned int m_mask; // the lanes of a tile or coalesced group
  unsigned int m_meta_rank;
  unsigned int m_meta_size;

  friend __GPURUN_CG__ thread_group tiled_partition(const thread_group& parent, unsigned int n);
};

class thread_block : public thread_group {
public:
  static __GPURUN_CG__ void sync() { __syncthreads(); }
  static __GPURUN_CG__ unsigned int thread_rank() { return __gpurun::block_rank(); }
  static __GPURUN_CG__ unsigned int num_threads() { return __gpurun::block_threads(); }
  static __GPURUN_CG__ unsigned int size() { return num_threads(); }
  static __GPURUN_CG__ dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static __GPURUN_CG__ dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static __GPURUN_CG__ dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  static __GPURUN_CG__ dim3 group_dim() { return dim_threads(); }
  static __GPURUN_CG__ bool is_valid() { return true; }

private:
  __GPURUN_CG__ thread_block() : thread_group(__gpurun::block_kind) {}
  friend __GPURUN_CG__ thread_block this_thread_block();
};

__GPURUN_CG__ thread_block this_thread_block() {
  return thread_block();
}

// The whole grid. Its barrier needs a cooperative launch (cudaLaunchCooperativeKernel), which
// gpurun does not make: as on a GPU launched without one, is_valid() is false and sync() stops
// the kernel (a kernel may test is_valid() and fall back, so this is not a compile error).
class grid_group : public thread_group {
public:
  __GPURUN_CG__ void sync() const
      __attribute__((diagnose_if(true,
                                 "grid_group::sync() needs a cooperative launch, which gpurun "
                                 "does not make: the kernel traps here",
                                 "warning"))) {
    __builtin_trap(); // grid_group::sync() without a cooperative launch
  }
  static __GPURUN_CG__ unsigned long long num_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  static __GPURUN_CG__ unsigned long long block_rank() {
    return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
           blockIdx.x;
  }
  static __GPURUN_CG__ unsigned long long num_threads() {
    return num_blocks() * __gpurun::block_threads();
  }
  static __GPURUN_CG__ unsigned long long size() { return num_threads(); }
  static __GPURUN_CG__ unsigned long long thread_rank() {
    return block_rank() * __gpurun::block_threads() + __gpurun::block_rank();
  }
  static __GPURUN_CG__ dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  static __GPURUN_CG__ dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static __GPURUN_CG__ bool is_valid() { return false; }

private:
  __GPURUN_CG__ grid_group() : thread_group(__gpurun::grid_kind) {}
  friend __GPURUN_CG__ grid_group this_grid();
};

__GPURUN_CG__ grid_group this_grid() {
  return grid_group();
}

namespace __gpurun {
// The warp-level operations of a group whose lanes are `m_mask`, in the group's ranks.
class lane_group : public thread_group {
public:
  __GPURUN_CG__ void sync() const { __syncwarp(m_mask); }
  __GPURUN_CG__ int any(int predicate) const { return __any_sync(m_mask, predicate); }
  __GPURUN_CG__ int all(int predicate) const { return __all_sync(m_mask, predicate); }
  __GPURUN_CG__ unsigned int ballot(int predicate) const {
    return __gpurun::pack_lanes(__ballot_sync(m_mask, predicate), m_mask);
  }
#ifdef __GPURUN_SM70__
  template <class T> __GPURUN_CG__ unsigned int match_any(T value) const {
    return __gpurun::pack_lanes(__match_any_sync(m_mask, value), m_mask);
  }
  template <class T> __GPURUN_CG__ unsigned int match_all(T value, int& predicate) const {
    return __gpurun::pack_lanes(__match_all_sync(m_mask, value, &predicate), m_mask);
  }
#endif
  __GPURUN_CG__ unsigned int meta_group_rank() const {
    return m_meta_rank;
  }
  __GPURUN_CG__ unsigned int meta_group_size() const {
    return m_meta_size;
  }

  // The lanes, for reduce() and the scans.
  __GPURUN_CG__ unsigned int __lanes() const {
    return m_mask;
  }

protected:
  using thread_group::thread_group;
};
} // namespace __gpurun

// The threads active where it is called: ranks in lane order.
class coalesced_group : public __gpurun::lane_group {
public:
  __GPURUN_CG__ unsigned int num_threads() const { return __popc(m_mask); }
  __GPURUN_CG__ unsigned int size() const { return num_threads(); }
  __GPURUN_CG__ unsigned int thread_rank() const {
    return __popc(m_mask & __gpurun::lanes_below());
  }
  template <class T> __GPURUN_CG__ T shfl(T value, unsigned int src_rank) const {
    return __gpurun::shfl<__gpurun::shfl_idx>(m_mask, value,
                                              __gpurun::lane_of_rank(m_mask, src_rank), 32);
  }
  // Past either end of the group a thread keeps its own value, as the warp shuffles do.
  template <class T> __GPURUN_CG__ T shfl_up(T value, unsigned int delta) const {
    if (m_mask == 0xffffffffu)
      return __gpurun::shfl<__gpurun::shfl_up>(m_mask, value, delta, 32);
    return __gpurun::shfl<__gpurun::shfl_idx>(m_mask, value, from(-static_cast<int>(delta) - 1),
                                              32);
  }
  template <class T> __GPURUN_CG__ T shfl_down(T value, unsigned int delta) const {
    if (m_mask == 0xffffffffu)
      return __gpurun::shfl<__gpurun::shfl_down>(m_mask, value, delta, 32);
    return __gpurun::shfl<__gpurun::shfl_idx>(m_mask, value, from(static_cast<int>(delta) + 1), 32);
  }

private:
  __GPURUN_CG__ explicit coalesced_group(unsigned int mask, unsigned int meta_rank = 0,
                                         unsigned int meta_size = 1)
      : lane_group(__gpurun::coalesced_kind, mask, meta_rank, meta_size) {}
  // The lane `offset` members away (fns counts the caller's own lane as the first).
  __GPURUN_CG__ unsigned int from(int offset) const {
    const unsigned int lane = __fns(m_mask, __gpurun::lane_id(), offset);
    return lane == 0xffffffffu ? __gpurun::lane_id() : lane;
  }

  friend __GPURUN_CG__ coalesced_group coalesced_threads();
  friend __GPURUN_CG__ coalesced_group tiled_partition(const coalesced_group& parent,
                                                       unsigned int n);
};

__GPURUN_CG__ coalesced_group coalesced_threads() {
  return coalesced_group(__activemask());
}

template <unsigned int N, class Parent = void> class thread_block_tile;

// A tile of N threads whose parent is no longer named (what thread_block_tile<N> holds).
template <unsigned int N> class thread_block_tile<N, void> : public __gpurun::lane_group {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "gpurun's thread_block_tile has 1, 2, 4, 8, 16 or 32 threads");

public:
  static constexpr unsigned int numThreads = N;
  static __GPURUN_CG__ constexpr unsigned int num_threads() { return N; }
  static __GPURUN_CG__ constexpr unsigned int size() { return N; }
  static __GPURUN_CG__ unsigned int thread_rank() { return __gpurun::lane_id() & (N - 1); }
  template <class T> __GPURUN_CG__ T shfl(T value, unsigned int src_rank) const {
    return __gpurun::shfl<__gpurun::shfl_idx>(m_mask, value, src_rank, N);
  }
  template <class T> __GPURUN_CG__ T shfl_up(T value, unsigned int delta) const {
    return __gpurun::shfl<__gpurun::shfl_up>(m_mask, value, delta, N);
  }
  template <class T> __GPURUN_CG__ T shfl_down(T value, unsigned int delta) const {
    return __gpurun::shfl<__gpurun::shfl_down>(m_mask, value, delta, N);
  }
  template <class T> __GPURUN_CG__ T shfl_xor(T value, unsigned int lane_mask) const {
    return __gpurun::shfl<__gpurun::shfl_bfly>(m_mask, value, lane_mask, N);
  }
  // The tile's bits of a warp-wide mask start at its first lane: bit i is rank i.
  __GPURUN_CG__ unsigned int ballot(int predicate) const {
    return __ballot_sync(m_mask, predicate) >> first_lane();
  }
#ifdef __GPURUN_SM70__
  template <class T> __GPURUN_CG__ unsigned int match_any(T value) const {
    return __match_any_sync(m_mask, value) >> first_lane();
  }
  template <class T> __GPURUN_CG__ unsigned int match_all(T value, int& predicate) const {
    return __match_all_sync(m_mask, value, &predicate) >> first_lane();
  }
#endif

protected:
  __GPURUN_CG__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : lane_group(__gpurun::tile_kind, __gpurun::tile_mask(N), meta_rank, meta_size) {}

private:
  static __GPURUN_CG__ unsigned int first_lane() {
    return __gpurun::lane_id() & ~(N - 1);
  }
};

// The tile tiled_partition<N>(parent) returns; it converts to thread_block_tile<N>.
template <unsigned int N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
  __GPURUN_CG__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_block_tile<N, void>(meta_rank, meta_size) {}

  template <unsigned int M>
  friend __GPURUN_CG__ thread_block_tile<M, thread_block>
  tiled_partition(const thread_block& parent);
  template <unsigned int M, unsigned int P, class G>
  friend __GPURUN_CG__ thread_block_tile<M, thread_block_tile<P, G>>
  tiled_partition(const thread_block_tile<P, G>& parent);
};

// Tiles of N consecutive threads of the block; meta_group_rank numbers them, meta_group_size
// counts them (the last one short when N does not divide the block).
template <unsigned int N>
__GPURUN_CG__ thread_block_tile<N, thread_block> tiled_partition(const thread_block& parent) {
  return thread_block_tile<N, thread_block>(parent.thread_rank() / N,
                                            (parent.num_threads() + N - 1) / N);
}

template <unsigned int N, unsigned int P, class G>
__GPURUN_CG__ thread_block_tile<N, thread_block_tile<P, G>>
tiled_partition(const thread_block_tile<P, G>& parent) {
  static_assert(N <= P, "a tile is partitioned into smaller tiles");
  return thread_block_tile<N, thread_block_tile<P, G>>(parent.thread_rank() / N, P / N);
}

// tiled_partition(parent, n): n a power of 2 up to 32 (anything else stops the kernel). A block
// or a tile splits into aligned runs of n lanes, a coalesced group into runs of n ranks.
__GPURUN_CG__ thread_group tiled_partition(const thread_group& parent, unsigned int n) {
  if (n == 0 || n > 32 || (n & (n - 1)) != 0)
    __trap();
  const unsigned int rank = static_cast<unsigned int>(parent.thread_rank());
  const unsigned int count = static_cast<unsigned int>(parent.num_threads());
  if (parent.m_kind == __gpurun::coalesced_kind)
    return thread_group(__gpurun::coalesced_kind, __gpurun::rank_run(parent.m_mask, rank, n),
                        rank / n, (count + n - 1) / n);
  return thread_group(__gpurun::tile_kind, __gpurun::tile_mask(n), rank / n, (count + n - 1) / n);
}

__GPURUN_CG__ coalesced_group tiled_partition(const coalesced_group& parent, unsigned int n) {
  if (n == 0 || n > 32 || (n & (n - 1)) != 0)
    __trap();
  const unsigned int rank = parent.thread_rank();
  return coalesced_group(__gpurun::rank_run(parent.m_mask, rank, n), rank / n,
                         (parent.num_threads() + n - 1) / n);
}

template <class Group> __GPURUN_CG__ void sync(const Group& group) {
  group.sync();
}
template <class Group> __GPURUN_CG__ unsigned long long thread_rank(const Group& group) {
  return group.thread_rank();
}
template <class Group> __GPURUN_CG__ unsigned long long group_size(const Group& group) {
  return group.num_threads();
}

} // namespace cooperative_groups
