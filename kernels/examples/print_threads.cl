// Every work-item prints its group index, local index and global index in x, y and z (CUDA's
// blockIdx, threadIdx and global index).
__kernel void print_threads(void) {
  printf("block_idx: [%u, %u, %u]\tthread_idx: [%u, %u, %u]\tglobal_idx: [%u, %u, %u]\n",
         (uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2),
         (uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2),
         (uint)get_global_id(0), (uint)get_global_id(1), (uint)get_global_id(2));
}
