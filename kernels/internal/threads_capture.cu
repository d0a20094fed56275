// The capture kernel of `gpurun threads --run`. Every thread writes what the hardware reports
// about it into the slot given by its place in launch order (blocks x fastest, then threads x
// fastest), so the host can compare the record with the arithmetic table row by row. The arrival
// counter orders the threads as they really ran. The layout of ThreadRecord is mirrored on the
// host in threads/thread_capture.hpp (CapturedThread); the build embeds this file in the binary.

struct ThreadRecord {
  unsigned block[3];
  unsigned thread[3];
  unsigned warpid;
  unsigned laneid;
  unsigned smid;
  unsigned arrival;
  unsigned long long globaltimer;
  unsigned long long clock;
};

// The records arrive as bytes (u8[N] in the run pipeline's argument grammar, which has no
// structs); allocations are aligned far beyond ThreadRecord's 8 bytes.
extern "C" __global__ void threads_capture(unsigned char* record_bytes, unsigned* arrivals) {
  ThreadRecord* records = reinterpret_cast<ThreadRecord*>(record_bytes);
  unsigned warpid;
  unsigned laneid;
  unsigned smid;
  unsigned long long globaltimer;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(laneid));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(globaltimer));
  const long long clock = clock64();
  const unsigned arrival = atomicAdd(arrivals, 1u);

  const unsigned long long block_linear =
      blockIdx.x + (unsigned long long)gridDim.x *
                       (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  const unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  ThreadRecord& r = records[block_linear * threads_per_block + linear];
  r.block[0] = blockIdx.x;
  r.block[1] = blockIdx.y;
  r.block[2] = blockIdx.z;
  r.thread[0] = threadIdx.x;
  r.thread[1] = threadIdx.y;
  r.thread[2] = threadIdx.z;
  r.warpid = warpid;
  r.laneid = laneid;
  r.smid = smid;
  r.arrival = arrival;
  r.globaltimer = globaltimer;
  r.clock = (unsigned long long)clock;
}
