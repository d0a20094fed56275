"""Writes the .npy fixtures read by tests/unit/core/npy_test.cpp (run with NumPy 1.24)."""
import os

import numpy as np
from numpy.lib import format as npf

here = os.path.dirname(os.path.abspath(__file__))


def save(name, array, version=None):
    with open(os.path.join(here, name), "wb") as f:
        npf.write_array(f, array, version=version)


save("f32_2x3.npy", np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5)
save("f16.npy", np.array([0.1, -2.5, 65504, np.inf], dtype=np.float16))
save("f64.npy", np.array([1.0 / 3, -0.0, 1e300], dtype=np.float64))
save("i8.npy", np.array([-128, 0, 127], dtype=np.int8))
save("i16.npy", np.array([-32768, 7, 32767], dtype=np.int16))
save("i32.npy", np.array([-(2**31), 1, 2**31 - 1], dtype=np.int32))
save("u8.npy", np.array([0, 1, 255], dtype=np.uint8))
save("u32.npy", np.array([0, 2**32 - 1], dtype=np.uint32))
save("u64.npy", np.array([2**64 - 1, 5], dtype=np.uint64))
save("scalar.npy", np.array(2.5, dtype=np.float64))
save("bool.npy", np.array([True, False, True]))
save("i64_v2.npy", np.array([-(2**63), 2**63 - 1], dtype=np.int64), version=(2, 0))
save("u16_v3.npy", np.array([1, 65535], dtype=np.uint16), version=(3, 0))
save("fortran.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
save("big_endian.npy", np.array([1, 2], dtype=">f4"))
save("complex.npy", np.array([1 + 2j], dtype=np.complex64))
save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
