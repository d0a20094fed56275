#!/usr/bin/env python3
"""Compares every .npy in two folders bit for bit; prints the first difference and exits 1."""
import pathlib
import sys

import numpy as np

a_dir, b_dir = map(pathlib.Path, sys.argv[1:3])
files = sorted(p.name for p in a_dir.glob("*.npy"))
if not files:
    print("no .npy files")
    sys.exit(1)
for name in files:
    a, b = np.load(a_dir / name), np.load(b_dir / name)
    if a.dtype != b.dtype or a.shape != b.shape:
        print(f"{name}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}")
        sys.exit(1)
    if a.tobytes() != b.tobytes():
        diff = np.flatnonzero(a.view(np.uint8) != b.view(np.uint8))
        # the elements, as bit patterns, so that a NaN payload or a -0 shows
        bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
        ea, eb = a.reshape(-1).view(bits), b.reshape(-1).view(bits)
        elems = np.flatnonzero(ea != eb)
        first = elems[0]
        print(f"{name}: differs at byte {diff[0]} ({len(diff)} bytes, {len(elems)} elements "
              f"differ; element {first}: {int(ea[first]):#x} vs {int(eb[first]):#x})")
        sys.exit(1)
print(f"{len(files)} buffers identical")
