// The capture kernel of `gpurun threads --run` on the OpenCL backend: threads_capture.cu's record
// in OpenCL C. A work-item's group and local ids are CUDA's blockIdx and threadIdx; the warp and
// lane are the sub-group's where the device has them (cl_khr_subgroups), else the position in the
// work-group divided by the device's warp size (GPURUN_WARP_SIZE, defined by gpurun): arithmetic,
// not the hardware's word. OpenCL C has no SM id and no clock: smid, globaltimer and clock are 0. The arrival counter orders the
// work-items as they really ran. The build embeds this file in the binary.

typedef struct {
  uint block[3];
  uint thread[3];
  uint warpid;
  uint laneid;
  uint smid;
  uint arrival;
  ulong globaltimer;
  ulong clock;
} ThreadRecord;

__kernel void threads_capture(__global uchar* record_bytes, __global volatile uint* arrivals) {
  __global ThreadRecord* records = (__global ThreadRecord*)record_bytes;
  const uint arrival = atomic_inc(arrivals);
  const ulong block_linear =
      get_group_id(0) + (ulong)get_num_groups(0) * (get_group_id(1) + (ulong)get_num_groups(1) *
                                                                          get_group_id(2));
  const uint threads_per_block = get_local_size(0) * get_local_size(1) * get_local_size(2);
  const uint linear =
      get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  __global ThreadRecord* r = &records[block_linear * threads_per_block + linear];
  for (uint d = 0; d < 3; ++d) {
    r->block[d] = get_group_id(d);
    r->thread[d] = get_local_id(d);
  }
#ifdef cl_khr_subgroups
  r->warpid = get_sub_group_id();
  r->laneid = get_sub_group_local_id();
#else
  r->warpid = linear / GPURUN_WARP_SIZE;
  r->laneid = linear % GPURUN_WARP_SIZE;
#endif
  r->smid = 0;
  r->arrival = arrival;
  r->globaltimer = 0;
  r->clock = 0;
}
