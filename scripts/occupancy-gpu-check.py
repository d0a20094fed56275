#!/usr/bin/env python3
"""`gpurun compile --occupancy` against the CUDA driver's own figure, on a machine with a GPU.

Kernels that span registers (live accumulators), static shared memory and named barriers are
compiled once to a cubin by `gpurun compile --arch sm_XX` (the device's architecture); the same
cubin is loaded by CuPy, and for every block size and dynamic shared size the driver's
cuOccupancyMaxActiveBlocksPerMultiprocessor is compared with gpurun's `active_blocks_per_sm`
(a kernel that needs more than 48 KiB opts in first, as gpurun assumes). Registers and static
shared memory from `--resources` are compared with the loaded function's attributes too.

Usage: scripts/occupancy-gpu-check.py [--gpurun build/gpurun] [--out DIR] [--record FILE]
Prints one line per kernel and a summary; exit status 1 on any difference. --record keeps the
kernels and the driver's answers for a subset of the cases in FILE (JSON), which a test compares
with `gpurun compile --occupancy` on machines without a GPU (tests/data/occupancy/).
"""
import argparse
import concurrent.futures as futures
import json
import os
import subprocess
import sys

import cupy as cp

BLOCKS = [32, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 896, 1024]
DYNAMIC = [0, 1024, 12000, 40000, 70000, 110000, 200000]
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


def kernel_source(accumulators, shared_floats, named_barriers):
    """One kernel whose live values, static shared array and barrier ids are the given ones."""
    name = f"k_r{accumulators}_s{shared_floats}_b{named_barriers}"
    n = accumulators
    lines = [f'extern "C" __global__ void {name}(const float* __restrict__ in, float* out, int m) {{',
             "  const int t = blockIdx.x * blockDim.x + threadIdx.x;"]
    lines += [f"  float a{i} = in[t + {i}];" for i in range(n)]
    lines.append("  for (int k = 0; k < m; ++k) {")
    lines += [f"    a{i} = a{i} * a{(i + 1) % n} + a{(i + 3) % n};" for i in range(n)]
    lines.append("  }")
    if shared_floats:
        lines += [f"  __shared__ float tile[{shared_floats}];",
                  f"  tile[threadIdx.x % {shared_floats}] = a0;", "  __syncthreads();",
                  f"  a0 += tile[(threadIdx.x + 1) % {shared_floats}];"]
    for b in range(1, named_barriers):
        lines.append(f'  asm volatile("bar.sync {b}, 32;");')
    lines.append("  out[t] = " + " + ".join(f"a{i}" for i in range(n)) + ";")
    lines.append("}")
    return name, "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpurun", default="build/gpurun")
    ap.add_argument("--out", default="/tmp/occupancy-check")
    ap.add_argument("--record", help="keep the kernels and the driver's answers in this JSON file")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    arch = "sm_" + cp.cuda.Device().compute_capability

    shapes = [(r, s, b) for r in (2, 16, 40, 72, 120, 200) for s in (0, 3000, 12288)
              for b in (1, 4)]
    sources = {}
    for r, s, b in shapes:
        name, text = kernel_source(r, s, b)
        sources[name] = text
    path = os.path.join(args.out, "kernels.cu")
    with open(path, "w") as f:
        f.write("\n".join(sources.values()))
    cubin = os.path.join(args.out, "kernels.cubin")
    res = subprocess.run([args.gpurun, "compile", path, "--arch", arch, "-o", cubin, "--resources",
                          "--json"], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"gpurun compile failed: {res.stderr}")
    resources = {k["kernel"]: k for k in json.loads(res.stdout)["resources"]["kernels"]}
    module = cp.RawModule(path=cubin)

    def offline(block, dynamic):
        out = subprocess.run([args.gpurun, "compile", path, "--arch", arch, "--occupancy",
                              "--json", "--block", str(block), "--shared", str(dynamic)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
        return {(block, dynamic, o["kernel"]): o for o in json.loads(out.stdout)["occupancy"]}

    ours = {}
    with futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        for part in pool.map(lambda bd: offline(*bd), [(b, d) for b in BLOCKS for d in DYNAMIC]):
            ours.update(part)

    compared = differ = 0
    resource_differ = 0
    recorded = []
    for name in sources:
        raw = module.get_function(name)
        # A RawKernel wraps the driver's function (CuPy 13: .kernel.ptr); older CuPy returned it.
        ptr = raw.kernel.ptr if hasattr(raw, "kernel") else raw.ptr
        regs = cp.cuda.driver.funcGetAttribute(4, ptr)  # CU_FUNC_ATTRIBUTE_NUM_REGS
        static = cp.cuda.driver.funcGetAttribute(1, ptr)  # CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
        r = resources[name]
        if (r["registers"], r["shared_bytes"]) != (regs, static):
            resource_differ += 1
            print(f"{name}: resources gpurun {r['registers']} regs {r['shared_bytes']} B, "
                  f"driver {regs} regs {static} B")
        mismatches = []
        for block in BLOCKS:
            for dynamic in DYNAMIC:
                mine = ours[(block, dynamic, name)]
                try:
                    cp.cuda.driver.funcSetAttribute(
                        ptr, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic)
                    driver = cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
                        ptr, block, dynamic)
                except cp.cuda.driver.CUDADriverError:
                    driver = 0  # cannot launch with that much dynamic shared memory
                if block in (64, 128, 256, 512, 1024) and dynamic in (0, 12000, 70000):
                    recorded.append({"kernel": name, "block": block, "dynamic_shared": dynamic,
                                     "active_blocks_per_sm": driver})
                compared += 1
                if driver != mine["active_blocks_per_sm"]:
                    differ += 1
                    mismatches.append(f"block {block} dyn {dynamic}: driver {driver}, gpurun "
                                      f"{mine['active_blocks_per_sm']} ({mine['limited_by']})")
        print(f"{name:26} regs {regs:3} static {static:6} B: "
              f"{'all equal' if not mismatches else f'{len(mismatches)} differ'}")
        for m in mismatches[:4]:
            print("   ", m)
    print(f"\noccupancy on {arch} ({cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}): "
          f"{compared - differ}/{compared} configurations equal to "
          f"cuOccupancyMaxActiveBlocksPerMultiprocessor; resources differ for {resource_differ} "
          f"of {len(sources)} kernels")
    if args.record:
        with open(args.record, "w") as f:
            json.dump({"arch": arch, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                       "driver": cp.cuda.runtime.driverGetVersion(),
                       "what": "cuOccupancyMaxActiveBlocksPerMultiprocessor for the kernels below, "
                               "recorded by scripts/occupancy-gpu-check.py --record",
                       "kernels_cu": open(path).read(), "cases": recorded}, f, indent=1)
            f.write("\n")
    return 1 if differ or resource_differ else 0


if __name__ == "__main__":
    sys.exit(main())
