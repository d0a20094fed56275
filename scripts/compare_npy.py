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
        print(f"{name}: differs at byte {diff[0]} ({len(diff)} bytes differ)")
        sys.exit(1)
print(f"{len(files)} buffers identical")
