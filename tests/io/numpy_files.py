#!/usr/bin/env python3
"""NumPy side of the .npy interoperability tests.

  numpy_files.py write DIR   NumPy writes the files that npy_numpy_test reads
  numpy_files.py check DIR   NumPy reads the files that io_write_samples wrote

Both sides fill arrays with value(i) = (((i*37) % 201) - 100) / 8 in C order, a sequence that
every dtype represents exactly, so each side checks the other against the formula alone.
"""

import os
import sys

import numpy as np

SHAPES = {"scalar": (), "vec7": (7,), "b2s3h16": (2, 3, 16), "one5": (1, 5), "empty": (0, 3)}
DTYPES = ("f2", "f4", "f8")
VERSIONS = (1, 2, 3)
SPECIALS = {
    "f2": [0.0, -0.0, np.inf, -np.inf, np.nan, 2.0**-24, 65504.0],
    "f4": [0.0, -0.0, np.inf, -np.inf, np.nan, 2.0**-149, 3.4028234663852886e38],
}


def values(shape):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    return ((((i * 37) % 201) - 100) / 8.0).reshape(shape)


def write(d):
    os.makedirs(d, exist_ok=True)
    for dt in DTYPES:
        for v in VERSIONS:
            for name, shape in SHAPES.items():
                arr = values(shape).astype("<" + dt)
                with open(os.path.join(d, f"{dt}_v{v}_{name}.npy"), "wb") as f:
                    np.lib.format.write_array(f, arr, version=(v, 0))
    for dt, vals in SPECIALS.items():
        np.save(os.path.join(d, f"specials_{dt}.npy"), np.array(vals, dtype="<" + dt))
    # Files the reader must refuse.
    np.save(os.path.join(d, "fortran.npy"), np.asfortranarray(values((2, 3)).astype("<f4")))
    np.save(os.path.join(d, "bigendian.npy"), values((4,)).astype(">f4"))
    np.save(os.path.join(d, "int32.npy"), np.arange(4, dtype="<i4"))
    np.save(os.path.join(d, "complex64.npy"), np.zeros(2, dtype="<c8"))
    np.save(os.path.join(d, "structured.npy"), np.zeros(2, dtype=[("a", "<f4")]))
    np.save(os.path.join(d, "object.npy"), np.array([1, "a"], dtype=object), allow_pickle=True)
    path = os.path.join(d, "truncated.npy")
    np.save(path, values((2, 8)).astype("<f4"))
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 3)


def check(d):
    failures = []
    checked = 0
    for dt in DTYPES:
        for v in VERSIONS:
            for name, shape in SHAPES.items():
                path = os.path.join(d, f"ours_{dt}_v{v}_{name}.npy")
                with open(path, "rb") as f:
                    major, minor = np.lib.format.read_magic(f)
                if (major, minor) != (v, 0):
                    failures.append(f"{path}: version {major}.{minor}, expected {v}.0")
                arr = np.load(path, allow_pickle=False)
                checked += 1
                if arr.dtype != np.dtype("<" + dt):
                    failures.append(f"{path}: dtype {arr.dtype.str}, expected <{dt}")
                if arr.shape != shape:
                    failures.append(f"{path}: shape {arr.shape}, expected {shape}")
                elif not np.array_equal(arr.astype(np.float64), values(shape)):
                    failures.append(f"{path}: values differ from the formula")
                if not arr.flags.c_contiguous:
                    failures.append(f"{path}: not C order")
    for dt, vals in SPECIALS.items():
        path = os.path.join(d, f"ours_specials_{dt}.npy")
        arr = np.load(path, allow_pickle=False)
        checked += 1
        want = np.array(vals, dtype="<" + dt)
        if (
            arr.dtype != want.dtype
            or not np.array_equal(arr, want, equal_nan=True)
            or not np.array_equal(np.signbit(arr), np.signbit(want))
        ):
            failures.append(f"{path}: {arr!r} != {want!r}")
    for f in failures:
        print("FAIL", f)
    print(
        f"checked {checked} files written by lngrad_io with NumPy {np.__version__}: "
        f"{len(failures)} failures"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "check"):
        print(__doc__)
        sys.exit(2)
    if sys.argv[1] == "write":
        write(sys.argv[2])
        sys.exit(0)
    sys.exit(check(sys.argv[2]))
