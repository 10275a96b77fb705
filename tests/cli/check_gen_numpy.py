#!/usr/bin/env python3
"""Checks a directory written by `lngrad gen` with NumPy alone.

Usage: check_gen_numpy.py DIR

NumPy reads every file the manifest lists (.npy through np.load, .bin through np.fromfile with
the manifest's dtype and shape; bfloat16, which NumPy lacks, as its 16 bits widened to float32),
then recomputes in float64, vectorised and independently of
lngrad's golden code: the row mean and variance of the stored x, and LayerNormGrad /
LayerNormGradBeta from the stored inputs. Each stored value must equal the float64 result
rounded to the file's dtype to within 1 ulp (two float64 evaluations in different orders can
fall on different sides of a rounding boundary, nothing more), and at least 99% of them exactly.
"""

import json
import os

import numpy as np

import check_util

DTYPES = {"float32": "<f4", "float16": "<f2", "bfloat16": "<u2"}


def bf16_round(exact):
    """float64 values rounded to the nearest bfloat16 (ties to even), as float32 (exact)."""
    a = np.abs(exact)
    _, e = np.frexp(np.maximum(a, 2.0**-126))  # a = m * 2^e, m in [0.5, 1)
    s = np.ldexp(1.0, e - 8)  # the bfloat16 spacing at a (8 significant bits)
    return (np.round(exact / s) * s).astype(np.float32)  # exact: a power-of-two scaling


def bf16_bits(values):
    """float32 values that are bfloat16 values -> their 16 bits (int16)."""
    return (values.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)


def load(d, entry):
    path = os.path.join(d, entry["path"])
    if entry["dtype"] == "bfloat16":  # the top half of a float32: widen the bits
        bits = np.fromfile(path, dtype="<u2").astype(np.uint32) << 16
        if bits.size != int(np.prod(entry["shape"])):
            raise SystemExit(f"FAIL {path}: {bits.size} elements, manifest {entry['shape']}")
        return BF16(bits.view(np.float32).reshape(tuple(entry["shape"])))
    want = np.dtype(DTYPES[entry["dtype"]])
    shape = tuple(entry["shape"])
    if path.endswith(".npy"):
        arr = np.load(path, allow_pickle=False)
        if arr.dtype != want or arr.shape != shape:
            raise SystemExit(f"FAIL {path}: {arr.dtype.str}{arr.shape}, manifest {want.str}{shape}")
    else:
        arr = np.fromfile(path, dtype=want)
        if arr.size != int(np.prod(shape)):
            raise SystemExit(f"FAIL {path}: {arr.size} elements, manifest {shape}")
        arr = arr.reshape(shape)
    return arr


class BF16(np.ndarray):
    """A float32 array that holds bfloat16 values (what the file stored)."""

    def __new__(cls, values):
        return np.asarray(values, np.float32).view(cls)


def ulps(stored, exact):
    """ulp distance between stored values and the exact values rounded to the same dtype."""
    if isinstance(stored, BF16):
        a, b, width = bf16_bits(np.asarray(stored)), bf16_bits(bf16_round(exact)), 16
    else:
        rounded = exact.astype(stored.dtype)
        bits = {2: np.int16, 4: np.int32}[stored.dtype.itemsize]
        a, b, width = stored.view(bits), rounded.view(bits), 8 * stored.dtype.itemsize

    def ordered(v):
        i = v.astype(np.int64)
        mag = i & ((1 << (width - 1)) - 1)
        return np.where(i < 0, -mag, mag)

    return np.abs(ordered(a) - ordered(b))


def main(d):
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    assert m["format"] == "lngrad-data/1", m["format"]
    files = {k: load(d, e) for k, e in m["files"].items()}
    h = m["shape"][2]
    eps = float(np.float32(m["eps"]))
    dy, x, gamma = (files[k].astype(np.float64) for k in ("dy", "x", "gamma"))
    mean, var = (files[k].astype(np.float64)[..., None] for k in ("mean", "variance"))
    checks = {}
    mean_exact = x.mean(axis=2)
    checks["mean"] = (files["mean"], mean_exact)
    checks["variance"] = (files["variance"], ((x - mean_exact[..., None]) ** 2).mean(axis=2))
    x1 = dy * gamma
    x2 = x - mean
    rstd = 1.0 / np.sqrt(var + eps)
    pd_var = np.sum(-0.5 * x1 * x2 * rstd**3, axis=2, keepdims=True)
    pd_mean = np.sum(-x1 * rstd, axis=2, keepdims=True) + pd_var / h * np.sum(
        -2.0 * x2, axis=2, keepdims=True
    )
    checks["golden_pd_x"] = (
        files["golden_pd_x"],
        x1 * rstd + pd_var * (2.0 / h) * x2 + pd_mean / h,
    )
    checks["golden_res_for_gamma"] = (files["golden_res_for_gamma"], x2 * rstd)
    res_stored = files["golden_res_for_gamma"].astype(np.float64)
    checks["golden_dgamma"] = (files["golden_dgamma"], np.sum(dy * res_stored, axis=(0, 1)))
    checks["golden_dbeta"] = (files["golden_dbeta"], np.sum(dy, axis=(0, 1)))
    failed = 0
    for name, (stored, exact) in checks.items():
        u = ulps(stored, exact)
        exact_share = float(np.mean(u == 0))
        ok = u.max() <= 1 and exact_share >= 0.99
        failed += not ok
        print(
            f"{'ok  ' if ok else 'FAIL'} {name}: max {u.max()} ulp, {100 * exact_share:.2f}% exact"
        )
    return check_util.summary(len(checks), failed)


if __name__ == "__main__":
    check_util.run(main, 1, __doc__)
