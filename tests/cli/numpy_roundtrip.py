#!/usr/bin/env python3
"""NumPy on both ends of `lngrad run`: NumPy writes the inputs (as the official gen_data.py
does: uniform(-100, 100) float32, mean and variance with keepdims), lngrad computes on the
native path, NumPy reads the outputs and checks them against its own float64 evaluation with
the official sample rule (an element is wrong only if abs err > 1e-4 AND rel err > 1e-4).
Then `lngrad verify` must agree: pass on NumPy's goldens, fail on a corrupted copy.

Usage: numpy_roundtrip.py LNGRAD WORKDIR
"""

import os
import shutil
import subprocess

import numpy as np

import check_util


def official_rule_failures(out, golden):
    err = np.abs(out.astype(np.float64) - golden)
    rel = err / np.abs(golden)
    return int(np.sum((err > 1e-4) & (rel > 1e-4)))


def main(lngrad, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    b, s, h, eps = 2, 32, 16, 1e-4
    rng = np.random.default_rng(5)
    dy = rng.uniform(-100, 100, (b, s, h)).astype(np.float32)
    x = rng.uniform(-100, 100, (b, s, h)).astype(np.float32)
    gamma = rng.uniform(-100, 100, (h,)).astype(np.float32)
    mean = np.mean(x, axis=2, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=2, keepdims=True)
    files = {"dy": dy, "x": x, "mean": mean, "variance": var, "gamma": gamma}
    args = [lngrad, "run", "--impl", "native", "--eps", str(eps), "--out", f"{work}/out"]
    for k, v in files.items():
        np.save(f"{work}/{k}.npy", v)
        args += [f"--{k}", f"{work}/{k}.npy"]
    r = subprocess.run(args, capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        print(f"FAIL: lngrad run exited {r.returncode}")
        return 1

    # NumPy's float64 evaluation of the same stored inputs.
    d64, x64, g64 = dy.astype(np.float64), x.astype(np.float64), gamma.astype(np.float64)
    m64, v64 = mean.astype(np.float64), var.astype(np.float64)
    x1, x2 = d64 * g64, x64 - m64
    rstd = 1.0 / np.sqrt(v64 + np.float64(np.float32(eps)))
    pd_var = np.sum(-0.5 * x1 * x2 * rstd**3, axis=2, keepdims=True)
    pd_mean = np.sum(-x1 * rstd, axis=2, keepdims=True) + pd_var / h * np.sum(
        -2 * x2, axis=2, keepdims=True
    )
    want = {"pd_x": x1 * rstd + pd_var * 2 / h * x2 + pd_mean / h, "res_for_gamma": x2 * rstd}
    res_out = np.load(f"{work}/out/res_for_gamma.npy")
    want["dgamma"] = np.sum(d64 * res_out.astype(np.float64), axis=(0, 1))
    want["dbeta"] = np.sum(d64, axis=(0, 1))
    failed = 0
    for name, golden in want.items():
        out = np.load(f"{work}/out/{name}.npy", allow_pickle=False)
        ok = out.dtype == np.float32 and out.shape == golden.shape
        wrong = official_rule_failures(out, golden) if ok else -1
        ok = ok and wrong == 0
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {out.dtype}{out.shape}, {wrong} wrong")
        np.save(f"{work}/golden_{name}.npy", golden.astype(np.float32))

    # lngrad verify on NumPy's goldens (a directory pair) passes; a corrupted output fails.
    r = subprocess.run([lngrad, "verify", f"{work}/out", work], capture_output=True, text=True)
    print(r.stdout, r.stderr)
    if r.returncode != 0:
        print(f"FAIL: verify against NumPy's goldens exited {r.returncode}")
        failed += 1
    bad = np.load(f"{work}/out/pd_x.npy")
    bad[1, 2, 3] += 1.0
    np.save(f"{work}/bad_pd_x.npy", bad)
    r = subprocess.run(
        [lngrad, "verify", f"{work}/bad_pd_x.npy", f"{work}/golden_pd_x.npy"],
        capture_output=True,
        text=True,
    )
    if r.returncode != 1 or "mismatches: 1 of 1024" not in r.stdout or "[1,2,3]" not in r.stdout:
        print(r.stdout, r.stderr)
        print(f"FAIL: verify of a corrupted output exited {r.returncode}")
        failed += 1
    return check_util.summary(6, failed)


if __name__ == "__main__":
    check_util.run(main, 2, __doc__)
