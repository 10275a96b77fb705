#!/usr/bin/env python3
"""PyTorch's LayerNorm backward (aten::native_layer_norm_backward: dx, dgamma, dbeta), float32,
on the shapes of issue 6, hot cache, outputs preallocated through the .out overload when this
PyTorch has it. Prints one JSON line per shape: name, median seconds per call, repetitions.

  bench_torch.py time THREADS           time every shape (median of REPS samples)
  bench_torch.py run DIR ROWS H         read the inputs bench_check wrote, write dx/dgamma/dbeta

Tuning (jemalloc, ATEN_CPU_CAPABILITY) is the caller's business (bench/compare)."""
import json
import os
import statistics
import sys
import time

import numpy as np
import torch

SHAPES = [(64, 16), (4096, 768), (8192, 1024), (16384, 4096), (2048, 12288)]
EPS = 1e-5
REPS = int(os.environ.get("LNGRAD_BENCH_REPS", "5"))


def capability():
    """The ATen CPU capability in use (torch.__config__ reports it in PyTorch 1.13)."""
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def make_call(dy, x, mean, rstd, gamma):
    h = x.shape[1]
    beta = torch.zeros_like(gamma)
    mask = [True, True, True]
    outs = (torch.empty_like(x), torch.empty_like(gamma), torch.empty_like(gamma))
    op = torch.ops.aten.native_layer_norm_backward
    try:
        op.out(dy, x, [h], mean, rstd, gamma, beta, mask, out0=outs[0], out1=outs[1], out2=outs[2])

        def call():
            return op.out(dy, x, [h], mean, rstd, gamma, beta, mask,
                          out0=outs[0], out1=outs[1], out2=outs[2])
        return call, True
    except (RuntimeError, AttributeError, TypeError):
        def call():
            return op(dy, x, [h], mean, rstd, gamma, beta, mask)
        return call, False


def time_shape(rows, h):
    g = torch.Generator().manual_seed(1)
    dy = torch.rand(rows, h, generator=g) * 2 - 1
    x = torch.rand(rows, h, generator=g) * 4 - 1.5
    gamma = torch.rand(h, generator=g) + 0.5
    mean = x.mean(dim=1, keepdim=True)
    rstd = 1.0 / torch.sqrt(x.var(dim=1, unbiased=False, keepdim=True) + EPS)
    call, prealloc = make_call(dy, x, mean, rstd, gamma)
    call()
    # Calls per sample: enough for ~20 ms, so timer overhead does not count.
    t0 = time.perf_counter()
    call()
    one = max(time.perf_counter() - t0, 1e-7)
    per_sample = max(1, int(0.02 / one))
    samples = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(per_sample):
            call()
        samples.append((time.perf_counter() - t0) / per_sample)
    return statistics.median(samples), prealloc


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "time":
        threads = int(sys.argv[2])
        torch.set_num_threads(threads)
        for rows, h in SHAPES:
            t, prealloc = time_shape(rows, h)
            print(json.dumps({"name": f"torch/rows:{rows}/h:{h}/threads:{threads}",
                              "seconds": t, "preallocated": prealloc,
                              "capability": capability()}), flush=True)
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "run":
        d, rows, h = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

        def load(name, shape):
            return torch.from_numpy(np.fromfile(os.path.join(d, name + ".f32"),
                                                 dtype=np.float32).reshape(shape))
        dy, x = load("dy", (rows, h)), load("x", (rows, h))
        gamma = load("gamma", (h,))
        mean, rstd = load("mean", (rows, 1)), load("rstd", (rows, 1))
        call, _ = make_call(dy, x, mean, rstd, gamma)
        dx, dgamma, dbeta = call()
        for name, t in (("dx", dx), ("dgamma", dgamma), ("dbeta", dbeta)):
            t.contiguous().numpy().astype(np.float32).tofile(os.path.join(d, name + ".f32"))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
