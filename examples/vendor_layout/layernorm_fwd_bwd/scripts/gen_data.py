#!/usr/bin/python3
"""Inputs and goldens of the LayerNorm forward + backward demo:
python3 ../scripts/gen_data.py [float|half].

Writes input/input_{inputX,inputDy,inputGamma,inputBeta}.bin and output/golden_*.bin for the
seven outputs in the working directory (the demo's build folder). Each stage's golden is
float64 maths from what that stage reads as the device stores it: the inputs, and the previous
stage's goldens rounded to the dtype (mean and variance for LayerNormGrad, resForGamma for
LayerNormGradBeta); every golden is rounded once to the dtype.
"""

import os
import sys

import numpy as np

# Keep in step with layernorm_fwd_bwd.asc.
B, S, H = 2, 1024, 64
EPSILON = 1e-5


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "float"
    dtype = {"float": np.float32, "half": np.float16}.get(name)
    if dtype is None:
        sys.exit("usage: gen_data.py [float|half]")
    rng = np.random.default_rng(11)
    x = rng.uniform(-10, 10, (B, S, H)).astype(dtype)
    dy = rng.uniform(-1, 1, (B, S, H)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, (H,)).astype(dtype)
    beta = rng.uniform(-1, 1, (H,)).astype(dtype)
    # The kernels receive epsilon as a value of the dtype.
    eps = np.float64(dtype(EPSILON))
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    gamma64, beta64 = gamma.astype(np.float64), beta.astype(np.float64)

    # LayerNorm: biased variance.
    mean64 = x64.mean(axis=2, keepdims=True)
    var64 = ((x64 - mean64) ** 2).mean(axis=2, keepdims=True)
    y = (x64 - mean64) / np.sqrt(var64 + eps) * gamma64 + beta64
    mean = mean64[..., 0].astype(dtype)
    variance = var64[..., 0].astype(dtype)

    # LayerNormGrad from the stored mean and variance.
    m = mean.astype(np.float64)[..., None]
    v = variance.astype(np.float64)[..., None]
    pd_xl = dy64 * gamma64
    x_mu = x64 - m
    rstd = (v + eps) ** -0.5
    pd_var = np.sum(-0.5 * pd_xl * x_mu * (v + eps) ** -1.5, axis=2, keepdims=True)
    pd_mean = np.sum(-pd_xl * rstd, axis=2, keepdims=True) + pd_var / H * np.sum(
        -2.0 * x_mu, axis=2, keepdims=True
    )
    pd_x = pd_xl * rstd + pd_var * 2.0 / H * x_mu + pd_mean / H
    res_for_gamma = (x_mu * rstd).astype(dtype)

    # LayerNormGradBeta from the stored resForGamma.
    pd_gamma = np.sum(dy64 * res_for_gamma.astype(np.float64), axis=(0, 1))
    pd_beta = np.sum(dy64, axis=(0, 1))

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    for label, arr in (("inputX", x), ("inputDy", dy), ("inputGamma", gamma), ("inputBeta", beta)):
        arr.tofile("./input/input_%s.bin" % label)
    for label, arr in (
        ("outputY", y),
        ("outputMean", mean),
        ("outputVariance", variance),
        ("outputPdX", pd_x),
        ("resForGamma", res_for_gamma),
        ("outputPdGamma", pd_gamma),
        ("outputPdBeta", pd_beta),
    ):
        arr.astype(dtype).tofile("./output/golden_%s.bin" % label)


if __name__ == "__main__":
    main()
