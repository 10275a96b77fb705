#!/usr/bin/python3
"""Inputs and goldens of the LayerNormGrad demo: python3 ../scripts/gen_data.py [float|half] [H].

Writes input/input_{inputX,inputDy,inputVariance,inputMean,inputGamma}.bin and
output/golden_{outputPdX,resForGamma}.bin in the working directory (the demo's build folder).
The goldens are computed in float64 from the inputs as stored (already rounded to the dtype)
and rounded once to the dtype at the end.
"""

import os
import sys

import numpy as np

# Keep in step with layernorm_grad.asc (H: the demo's second argument, default 128).
B, S = 2, 512
EPSILON = 1e-4


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "float"
    dtype = {"float": np.float32, "half": np.float16}.get(name)
    H = int(sys.argv[2]) if len(sys.argv) > 2 else 128
    if dtype is None or H < 1 or len(sys.argv) > 3:
        sys.exit("usage: gen_data.py [float|half] [H >= 1]")
    rng = np.random.default_rng(2024)
    x = rng.uniform(-100, 100, (B, S, H)).astype(dtype)
    dy = rng.uniform(-100, 100, (B, S, H)).astype(dtype)
    gamma = rng.uniform(-100, 100, (H,)).astype(dtype)
    # mean and biased variance of the stored x, rounded to the dtype like every input.
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=2).astype(dtype)
    variance = ((x64 - x64.mean(axis=2, keepdims=True)) ** 2).mean(axis=2).astype(dtype)

    # The kernel receives epsilon as a value of the dtype.
    eps = np.float64(dtype(EPSILON))
    dy64, gamma64 = dy.astype(np.float64), gamma.astype(np.float64)
    mean64 = mean.astype(np.float64)[..., None]
    var64 = variance.astype(np.float64)[..., None]
    pd_xl = dy64 * gamma64
    x_mu = x64 - mean64
    rstd = (var64 + eps) ** -0.5
    pd_var = np.sum(-0.5 * pd_xl * x_mu * (var64 + eps) ** -1.5, axis=2, keepdims=True)
    pd_mean = np.sum(-pd_xl * rstd, axis=2, keepdims=True) + pd_var / H * np.sum(
        -2.0 * x_mu, axis=2, keepdims=True
    )
    pd_x = pd_xl * rstd + pd_var * 2.0 / H * x_mu + pd_mean / H
    res_for_gamma = x_mu * rstd

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    for label, arr in (
        ("inputX", x),
        ("inputDy", dy),
        ("inputVariance", variance),
        ("inputMean", mean),
        ("inputGamma", gamma),
    ):
        arr.tofile("./input/input_%s.bin" % label)
    pd_x.astype(dtype).tofile("./output/golden_outputPdX.bin")
    res_for_gamma.astype(dtype).tofile("./output/golden_resForGamma.bin")


if __name__ == "__main__":
    main()
