// Cooperative groups as CUDA's own headers implement them: a warp-tile reduce, a multi-warp tile
// reduce (its scratch lives in the reserved shared memory that %reserved_smem_offset_1 points at,
// its barriers spin on shared memory), labeled_partition (match.any.sync) and
// __syncthreads_count/_and/_or (bar.red).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cg_reduce(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned i = block.group_index().x * block.size() + block.thread_rank();
  const int v = in[i];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int warp_sum = cg::reduce(warp, v, cg::plus<int>());
  cg::thread_block_tile<128> quad = cg::tiled_partition<128>(block);
  const int quad_sum = cg::reduce(quad, v, cg::plus<int>());
  const int quad_max = cg::reduce(quad, v, cg::greater<int>());
  cg::coalesced_group label = cg::labeled_partition(warp, v % 3);
  const int label_max = cg::reduce(label, v, cg::greater<int>());
  const int even = __syncthreads_count(v % 2 == 0);
  const int all = __syncthreads_and(v >= 0);
  const int any = __syncthreads_or(v > 300);
  int* o = out + 8 * i;
  o[0] = warp_sum;
  o[1] = quad_sum;
  o[2] = quad_max;
  o[3] = label_max;
  o[4] = static_cast<int>(label.size() * 100 + label.thread_rank());
  o[5] = even;
  o[6] = all != 0;
  o[7] = any != 0;
}
