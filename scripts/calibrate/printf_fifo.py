#!/usr/bin/env python3
"""Measures how the GPU's device printf buffer fills: how many calls of a given shape survive a
launch that prints more than the buffer holds, which ones (first or last), and what printf
returns. Run on a CUDA machine with CuPy; prints one line per experiment."""
import os
import subprocess
import sys
import tempfile

KERNELS = {
    # name: (format, C arguments)
    "noargs": ('"x\\n"', ""),
    "one_int": ('"%d\\n"', ", i"),
    "two_int": ('"%d %d\\n"', ", i, i"),
    "three_mixed": ('"%d %f %lld\\n"', ", i, (double)i, (long long)i"),
    "long_fmt": ('"a fairly long format string that says %d\\n"', ", i"),
    "string": ('"%s %d\\n"', ', "abcdefghijklmnopqrstuvwxyz", i'),
}

CHILD = r'''
import sys, cupy as cp
fmt, args, n, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if limit:
    cp.cuda.runtime.deviceSetLimit(cp.cuda.runtime.cudaLimitPrintfFifoSize, limit)
src = 'extern "C" __global__ void k(int n, int* ret) { int i = blockIdx.x * blockDim.x + threadIdx.x;' \
      ' if (i < n) { int r = printf(' + fmt + args + '); if (i == 0) ret[0] = r; } }'
k = cp.RawKernel(src, "k")
ret = cp.zeros(1, dtype=cp.int32)
k(((n + 255) // 256,), (256,), (cp.int32(n), ret))
cp.cuda.runtime.deviceSynchronize()
sys.stdout.flush()
sys.stderr.write("RET %d\n" % int(ret.get()[0]))
'''

def run(fmt, args, n, limit):
    p = subprocess.run([sys.executable, "-c", CHILD, fmt, args, str(n), str(limit)],
                       capture_output=True, text=True)
    lines = p.stdout.splitlines()
    ret = [l for l in p.stderr.splitlines() if l.startswith("RET")]
    return lines, (ret[0].split()[1] if ret else "?"), p.returncode

def main():
    n = 200000
    for limit in (0, 65536, 4 << 20):
        for name, (fmt, args) in KERNELS.items():
            lines, ret, rc = run(fmt, args, n, limit)
            nums = []
            for l in lines:
                parts = l.split()
                try:
                    nums.append(int(parts[-1]))
                except (ValueError, IndexError):
                    pass
            lo = min(nums) if nums else -1
            hi = max(nums) if nums else -1
            print(f"limit={limit or 'default'} {name}: printed={len(lines)} of {n} "
                  f"bytes_out={sum(len(l) + 1 for l in lines)} min_i={lo} max_i={hi} ret={ret} rc={rc}")

if __name__ == "__main__":
    main()
