#include "backends/kit/cuda_occupancy.hpp"

#include <gtest/gtest.h>

#if GPURUN_TEST_HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>
#endif

namespace gpurun::arch {
namespace {

Occupancy on(std::string_view arch, KernelUse use, int block) {
  const auto sm = sm_limits(arch);
  EXPECT_TRUE(sm.has_value()) << arch;
  return occupancy(*sm, arch, use, block);
}

TEST(CudaOccupancy, ArchitecturesAndSuffixes) {
  EXPECT_TRUE(sm_limits("sm_90").has_value());
  EXPECT_TRUE(sm_limits("sm_90a").has_value());
  EXPECT_TRUE(sm_limits("compute_80").has_value());
  EXPECT_FALSE(sm_limits("sm_61").has_value());
  EXPECT_FALSE(sm_limits("gfx90a").has_value());
  EXPECT_EQ(sm_limits("sm_86")->max_threads_per_sm, 1536);
  EXPECT_NE(known_occupancy_archs().find("sm_90"), std::string::npos);
}

TEST(CudaOccupancy, WarpsLimitASmallKernel) {
  // 32 registers, no shared memory, 256 threads on sm_90: 2048 threads per SM → 8 blocks.
  const auto o = on("sm_90", {.registers = 32}, 256);
  EXPECT_EQ(o.active_blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  EXPECT_EQ(o.limited_by, (std::vector<std::string>{"warps", "registers"}));
  EXPECT_EQ(o.shared_per_block, 1024u) << "the driver's reserve alone";
}

TEST(CudaOccupancy, RegistersLimitAndTheNextStep) {
  // 64 registers × 256 threads: 2048 registers per warp, 8 warps per partition of 16384 → 32
  // warps per SM, 4 blocks (50 %); 56 registers (1792 per warp) would fit 9 warps per partition
  // → 36 warps, still 4 blocks; 48 fit 10 → 40 warps → 5 blocks.
  const auto o = on("sm_90", {.registers = 64}, 256);
  EXPECT_EQ(o.active_blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.5);
  EXPECT_EQ(o.limited_by, (std::vector<std::string>{"registers"}));
  EXPECT_EQ(o.limits[1].next_step, "48 registers per thread or fewer");
  EXPECT_EQ(o.registers_per_block, 64 * 256);
}

TEST(CudaOccupancy, SharedMemoryLimitAndTheNextStep) {
  // 48 KiB static + 1 KiB reserve per block on 228 KiB: 4 blocks; 5 need ≤ 45.6 KiB each.
  const auto o = on("sm_90", {.registers = 32, .static_shared = 48 * 1024}, 128);
  EXPECT_EQ(o.active_blocks_per_sm, 4);
  EXPECT_EQ(o.limited_by, (std::vector<std::string>{"shared memory"}));
  const std::size_t step = 228 * 1024 / 5 / 128 * 128 - 1024;
  EXPECT_EQ(o.limits[2].next_step,
            std::to_string(step) + " bytes of shared memory per block or fewer");
}

TEST(CudaOccupancy, WhatCannotLaunchSaysWhy) {
  EXPECT_EQ(on("sm_90", {.registers = 32}, 2048).active_blocks_per_sm, 0);
  EXPECT_NE(on("sm_90", {.registers = 32}, 2048).cannot_launch.find("at most 1024"),
            std::string::npos);
  const auto regs = on("sm_90", {.registers = 255}, 1024);
  EXPECT_EQ(regs.active_blocks_per_sm, 0);
  EXPECT_NE(regs.cannot_launch.find("registers"), std::string::npos);
  const auto shared = on("sm_86", {.registers = 32, .dynamic_shared = 100 * 1024}, 128);
  EXPECT_EQ(shared.active_blocks_per_sm, 0);
  EXPECT_NE(shared.cannot_launch.find("shared memory"), std::string::npos);
}

TEST(CudaOccupancy, BestBlockSizes) {
  const auto o = on("sm_90", {.registers = 64}, 96);
  EXPECT_DOUBLE_EQ(o.best_occupancy, 0.5);
  ASSERT_FALSE(o.best_block_sizes.empty());
  for (const int size : o.best_block_sizes) {
    EXPECT_DOUBLE_EQ(on("sm_90", {.registers = 64}, size).occupancy, 0.5) << size;
  }
}

#if GPURUN_TEST_HAVE_CUDA_OCCUPANCY_H
// Every architecture, block size and a spread of registers, shared memory and barriers: the
// same blocks per SM as the toolkit's calculator given the same device attributes.
TEST(CudaOccupancy, EqualsTheToolkitsCalculator) {
  int compared = 0;
  for (const char* arch : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
                           "sm_100", "sm_120"}) {
    const SmLimits sm = *sm_limits(arch);
    cudaOccDeviceProp prop{};
    prop.computeMajor = sm.compute_major;
    prop.computeMinor = sm.compute_minor;
    prop.maxThreadsPerBlock = sm.max_threads_per_block;
    prop.maxThreadsPerMultiprocessor = sm.max_threads_per_sm;
    prop.regsPerBlock = sm.registers_per_block;
    prop.regsPerMultiprocessor = sm.registers_per_sm;
    prop.warpSize = 32;
    prop.sharedMemPerBlock = sm.shared_per_block;
    prop.sharedMemPerMultiprocessor = sm.shared_per_sm;
    prop.numSms = 132;
    prop.sharedMemPerBlockOptin = sm.shared_per_block_optin;
    prop.reservedSharedMemPerBlock = sm.reserved_shared_per_block;
    for (int block = 32; block <= 1056; block += 32)
      for (int regs : {0, 16, 24, 32, 40, 56, 64, 72, 96, 128, 168, 255})
        for (std::size_t shared : {0, 100, 4096, 12000, 48 * 1024, 70000})
          for (std::size_t dynamic : {0, 1000, 40000})
            for (int barriers : {0, 1, 3}) {
              cudaOccFuncAttributes attr{};
              attr.maxThreadsPerBlock = 1024;
              attr.numRegs = regs;
              attr.sharedSizeBytes = shared;
              attr.partitionedGCConfig = PARTITIONED_GC_OFF;
              attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
              attr.maxDynamicSharedSizeBytes = sm.shared_per_block_optin - shared;
              attr.numBlockBarriers = barriers;
              cudaOccDeviceState state{};
              cudaOccResult result{};
              if (shared > sm.shared_per_block_optin)
                continue;
              ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state,
                                                                block, dynamic),
                        CUDA_OCC_SUCCESS);
              const auto o = occupancy(
                  sm, arch,
                  {.registers = regs, .static_shared = shared, .dynamic_shared = dynamic,
                   .barriers = barriers},
                  block);
              ASSERT_EQ(o.active_blocks_per_sm, result.activeBlocksPerMultiprocessor)
                  << arch << " block " << block << " regs " << regs << " shared " << shared
                  << " dynamic " << dynamic << " barriers " << barriers;
              ++compared;
            }
  }
  EXPECT_GT(compared, 10000);
}
#else
TEST(CudaOccupancy, EqualsTheToolkitsCalculator) {
  GTEST_SKIP() << "cuda_occupancy.h not found at build time";
}
#endif

} // namespace
} // namespace gpurun::arch
