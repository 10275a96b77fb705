#!/usr/bin/python3
"""Inputs and goldens of the LayerNormGradBeta demo: python3 ../scripts/gen_data.py [float|half] [H].

Writes input/input_{resForGamma,inputDy}.bin and output/golden_{outputPdGamma,outputPdBeta}.bin
in the working directory (the demo's build folder). pdGamma = sum over the B*S rows of
dy * resForGamma, pdBeta = sum of dy, in float64 from the inputs as stored, rounded once to the
dtype. The inputs are integers in [-10, 10), as in the vendor's sample: then every partial sum
of the kernels is exact in float, whatever the order of the blocks and tiles.
"""

import os
import sys

import numpy as np

# Keep in step with layernorm_grad_beta.asc (H: the demo's second argument, default 256).
B, S = 4, 256


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "float"
    dtype = {"float": np.float32, "half": np.float16}.get(name)
    H = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    if dtype is None or H < 1 or len(sys.argv) > 3:
        sys.exit("usage: gen_data.py [float|half] [H >= 1]")
    rng = np.random.default_rng(7)
    res_for_gamma = rng.integers(-10, 10, (B, S, H)).astype(dtype)
    dy = rng.integers(-10, 10, (B, S, H)).astype(dtype)
    res64, dy64 = res_for_gamma.astype(np.float64), dy.astype(np.float64)
    pd_gamma = np.sum(dy64 * res64, axis=(0, 1))
    pd_beta = np.sum(dy64, axis=(0, 1))

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    res_for_gamma.tofile("./input/input_resForGamma.bin")
    dy.tofile("./input/input_inputDy.bin")
    pd_gamma.astype(dtype).tofile("./output/golden_outputPdGamma.bin")
    pd_beta.astype(dtype).tofile("./output/golden_outputPdBeta.bin")


if __name__ == "__main__":
    main()
