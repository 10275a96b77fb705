#!/usr/bin/env python3
"""Writes the crafted input files of the CLI tests (tests/cli/CMakeLists.txt) with NumPy.

Usage: make_cases.py DIR   (DIR is emptied first)
"""

import os
import shutil
import sys

import numpy as np

B, S, H = 2, 4, 16


def save(path, arr):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.save(path, arr)


def main(d):
    shutil.rmtree(d, ignore_errors=True)
    rng = np.random.default_rng(20240611)
    dy = rng.uniform(-10, 10, (B, S, H)).astype("<f4")
    x = rng.uniform(-10, 10, (B, S, H)).astype("<f4")
    gamma = rng.uniform(-2, 2, (H,)).astype("<f4")
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=2, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=2, keepdims=True)
    mean = mean.astype("<f4")  # [B,S,1], as the official gen_data.py keeps the dims
    var = var.astype("<f4")

    # A complete, valid input set written by NumPy (no manifest: run needs --eps).
    for name, arr in (("dy", dy), ("x", x), ("mean", mean), ("variance", var), ("gamma", gamma)):
        save(f"{d}/np/{name}.npy", arr)
        os.makedirs(f"{d}/bin", exist_ok=True)
        arr.tofile(f"{d}/bin/{name}.bin")
    # The official sample's names.
    os.makedirs(f"{d}/sample", exist_ok=True)
    for name, arr in (
        ("inputDy", dy),
        ("inputX", x),
        ("inputMean", mean),
        ("inputVariance", var),
        ("inputGamma", gamma),
    ):
        arr.tofile(f"{d}/sample/input_{name}.bin")

    # Inputs each of which must be refused (or, for NaN, reported).
    bad = f"{d}/bad"
    os.makedirs(bad, exist_ok=True)
    with open(f"{bad}/garbage.npy", "wb") as f:
        f.write(b"hello, this is not numpy\n")
    save(f"{bad}/truncated.npy", dy)
    with open(f"{bad}/truncated.npy", "r+b") as f:
        f.truncate(os.path.getsize(f"{bad}/truncated.npy") - 5)
    save(f"{bad}/bigendian.npy", dy.astype(">f4"))
    save(f"{bad}/fortran.npy", np.asfortranarray(x))
    save(f"{bad}/int32.npy", dy.astype("<i4"))
    save(f"{bad}/x_shape.npy", x[:, :, :8].copy())
    save(f"{bad}/mean_shape.npy", mean[:, :3, 0].copy())
    save(f"{bad}/gamma_shape.npy", gamma[:8].copy())
    save(f"{bad}/x_half.npy", x.astype("<f2"))
    nan = dy.copy()
    nan[1, 2, 3] = np.nan
    nan[0, 0, 5] = np.inf
    save(f"{bad}/dy_nan.npy", nan)
    save(f"{bad}/dy_f64.npy", dy.astype("<f8"))
    dy.tofile(f"{bad}/short.bin")
    with open(f"{bad}/short.bin", "r+b") as f:
        f.truncate(os.path.getsize(f"{bad}/short.bin") - 4)

    # verify: files with known differences from ref.
    v = f"{d}/verify"
    ref = (np.arange(12, dtype=np.float64).reshape(3, 4) - 5.5) * 0.75
    ref = ref.astype("<f4")
    save(f"{v}/ref.npy", ref)
    save(f"{v}/same.npy", ref.copy())
    ulp1 = ref.copy()
    ulp1[1, 2] = np.nextafter(ulp1[1, 2], np.float32(np.inf))
    save(f"{v}/ulp1.npy", ulp1)
    off = ref.copy()
    off[0, 1] += np.float32(0.5)
    off[2, 3] += np.float32(0.01)
    save(f"{v}/off.npy", off)
    # [1,0] passes allclose (1.5e-4 <= 1e-4 + 1e-4*1) but not the ascend rule (both errors
    # 1.5e-4); [0,1] passes both (abs 0.05 > atol but rel 5e-5 <= rtol: the ascend rule needs
    # both over).
    ones = np.array([[1, 1000], [1, 1]], dtype="<f4")
    mixed = ones.copy()
    mixed[1, 0] = np.float32(1.00015)
    mixed[0, 1] = np.float32(1000.05)
    save(f"{v}/ones.npy", ones)
    save(f"{v}/mixed.npy", mixed)
    nan_ref = ref.copy()
    nan_ref[2, 0] = np.nan
    save(f"{v}/nan_ref.npy", nan_ref)
    save(f"{v}/nan_same.npy", nan_ref.copy())
    save(f"{v}/nan_vs_num.npy", ref.copy())
    save(f"{v}/shape43.npy", ref.reshape(4, 3).copy())
    ref.tofile(f"{v}/ref.bin")
    off.tofile(f"{v}/off.bin")
    half = ref.astype("<f2")
    half_ulp1 = half.copy()
    half_ulp1.view("<u2")[0, 0] += 1
    save(f"{v}/half_ref.npy", half)
    save(f"{v}/half_ulp1.npy", half_ulp1)
    # Directory pairs: ours (golden_<name> / <name>) and the official sample's naming.
    save(f"{v}/dir_gold/golden_pd_x.npy", ref)
    save(f"{v}/dir_out/pd_x.npy", ulp1)
    os.makedirs(f"{v}/sample_gold", exist_ok=True)
    os.makedirs(f"{v}/sample_out", exist_ok=True)
    ref.tofile(f"{v}/sample_gold/golden_outputPdX.bin")
    off.tofile(f"{v}/sample_out/output_outputPdX.bin")
    os.makedirs(f"{v}/empty", exist_ok=True)
    os.makedirs(f"{v}/missing_out", exist_ok=True)
    print(f"wrote the CLI test cases to {d}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1])
