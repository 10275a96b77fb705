#!/usr/bin/env python3
"""Accuracy of half (float16) LayerNorm backward: lngrad's two evaluations (half_eval="fast", the
default, and "correctly-rounded") side by side with PyTorch's own float16 CPU kernel and with
PyTorch's float32 computation rounded to half, on the same float16 inputs, each measured against
the float64 oracle of python/tests/oracle.py (docs/math.md §1) at the statistics it was given:
PyTorch's forward saves float16 statistics for float16 data on the CPU, and its float16 kernel is
judged at those; lngrad (as lngrad.torch and lngrad.layer_norm_backward use it) and the float32
computation at PyTorch's float32 statistics.

  half_accuracy.py [--torch-python PY] [--shapes ROWSxH,...]
      run with a Python that imports lngrad (PYTHONPATH=build/dev/python, build/venv/bin/python);
      PY (default: this Python) must import a torch with a float16 CPU layer norm (torch >= 2.1,
      e.g. the PyPI torch that bench/compare installs); it runs `half_accuracy.py torch DIR`.
  half_accuracy.py torch DIR
      reads DIR/{dy,x,gamma,beta}.npy and writes torch's float16 dx, dgamma, dbeta and the
      forward's mean, rstd as DIR/torch16_*.npy, its float32 ones (outputs rounded to half) as
      DIR/torch32_*.npy.

Prints one markdown table: per case and contender, the share of dx elements equal to the oracle
rounded to half, the share within 1 half ulp, the largest distance in half ulps, the root mean
square error in units of the half spacing at the oracle, and the same share and largest distance
for dgamma and dbeta.
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

EPS = 1e-5


def torch_main(d):
    import torch

    dy, x, gamma, beta = (
        torch.from_numpy(np.load(os.path.join(d, f"{n}.npy"))) for n in ("dy", "x", "gamma", "beta")
    )
    h = x.shape[-1]
    mask = [True, True, True]
    for tag, dtype in (("torch16", torch.float16), ("torch32", torch.float32)):
        # What autograd runs for torch.nn.functional.layer_norm: the forward's saved statistics
        # (float16 ones for float16 data on the CPU), then the backward at them.
        xs, w, b = (t.to(dtype) for t in (x, gamma, beta))
        _, mean, rstd = torch.ops.aten.native_layer_norm(xs, [h], w, b, EPS)
        outs = torch.ops.aten.native_layer_norm_backward(
            dy.to(dtype), xs, [h], mean, rstd, w, b, mask
        )
        for name, t in zip(("dx", "dgamma", "dbeta"), outs):
            np.save(os.path.join(d, f"{tag}_{name}.npy"), t.to(torch.float16).numpy())
        for name, t in (("mean", mean), ("rstd", rstd)):
            np.save(os.path.join(d, f"{tag}_{name}.npy"), t.reshape(-1).to(torch.float32).numpy())
    print(torch.__version__)


def cases(shapes):
    """(name, dy, x, gamma, beta) in float16: typical rows, and rows whose dx cancels (dy nearly
    a combination of 1 and the normalized x, which the backward projects away)."""
    rng = np.random.default_rng(19)
    for rows, h in shapes:
        x = (rng.standard_normal((rows, h)) * 1.5 + 0.3).astype(np.float16)
        gamma = (rng.standard_normal(h) * 0.5 + 1.0).astype(np.float16)
        beta = rng.standard_normal(h).astype(np.float16)
        dy = rng.standard_normal((rows, h)).astype(np.float16)
        yield f"{rows} × {h}, typical", dy, x, gamma, beta
        xf = x.astype(np.float64)
        xhat = (xf - xf.mean(-1, keepdims=True)) / xf.std(-1, keepdims=True)
        g = gamma.astype(np.float64)
        dyc = (0.7 + 1.3 * xhat) / g + 0.01 * rng.standard_normal((rows, h))
        yield f"{rows} × {h}, cancelling", dyc.astype(np.float16), x, gamma, beta


def stats(out, exact, oracle):
    ulps = oracle.half_ulps(out, exact)
    spacing = oracle.half_spacing(np.asarray(exact, np.float64).astype(np.float16))
    err = (np.asarray(out, np.float16).astype(np.float64) - exact) / spacing
    return (
        100.0 * np.mean(ulps == 0),
        100.0 * np.mean(ulps <= 1),
        int(ulps.max()),
        float(np.sqrt(np.mean(err * err))),
    )


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "python", "tests"))
    import oracle  # noqa: E402  (python/tests/oracle.py: float64, written for the tests)
    import lngrad  # noqa: E402

    torch_py = sys.executable
    shapes = [(4096, 768), (1024, 4096)]
    it = iter(argv)
    for a in it:
        if a == "--torch-python":
            torch_py = next(it)
        elif a == "--shapes":
            shapes = [tuple(int(v) for v in s.split("x")) for s in next(it).split(",")]
        else:
            sys.exit(f"half_accuracy.py: unknown argument {a!r} (see the module doc)")

    print(
        "| case | contender | dx = rounded oracle | dx within 1 ulp | dx max ulps |"
        " dx RMS error (half spacings) | dgamma, dbeta = rounded oracle | dgamma, dbeta max ulps |"
    )
    print("|---|---|---|---|---|---|---|---|")
    torch_version = None
    for name, dy, x, gamma, beta in cases(shapes):
        h = x.shape[-1]
        with tempfile.TemporaryDirectory() as d:
            for n, a in (("dy", dy), ("x", x), ("gamma", gamma), ("beta", beta)):
                np.save(os.path.join(d, f"{n}.npy"), a)
            r = subprocess.run(
                [torch_py, os.path.abspath(__file__), "torch", d], capture_output=True, text=True
            )
            if r.returncode != 0:
                sys.exit(f"half_accuracy.py: {torch_py} failed:\n{r.stderr.strip()}")
            torch_version = r.stdout.strip()
            got = {
                tag: {
                    n: np.load(os.path.join(d, f"{tag}_{n}.npy"))
                    for n in ("dx", "dgamma", "dbeta", "mean", "rstd")
                }
                for tag in ("torch16", "torch32")
            }
        # Every contender is judged at the statistics it was given, exactly: PyTorch's float16
        # kernel at its float16 ones, the others at PyTorch's float32 ones (lngrad takes them as
        # lngrad.torch and lngrad.layer_norm_backward do).
        s32 = got["torch32"]
        outs = {}
        for mode in ("fast", "correctly-rounded"):
            outs[f"lngrad {mode}"] = (
                lngrad.layer_norm_backward(dy, x, s32["mean"], s32["rstd"], gamma, half_eval=mode),
                "torch32",
            )
        outs["PyTorch float16 kernel"] = (
            tuple(got["torch16"][n] for n in ("dx", "dgamma", "dbeta")),
            "torch16",
        )
        outs["PyTorch float32, rounded to half"] = (
            tuple(s32[n] for n in ("dx", "dgamma", "dbeta")),
            "torch32",
        )
        for label, ((dx, dg, db), stat) in outs.items():
            mean = got[stat]["mean"].astype(np.float64)
            variance = 1.0 / got[stat]["rstd"].astype(np.float64) ** 2  # eps inside
            e_dx, e_res, _ = oracle.grad(dy, x, variance, mean, gamma, 0.0)
            e_g, e_b, _, _ = oracle.beta(dy, e_res)
            ex, w1, mx, rms = stats(dx, e_dx, oracle)
            gb = np.concatenate([oracle.half_ulps(dg, e_g), oracle.half_ulps(db, e_b)])
            print(
                f"| {name} | {label} | {ex:.3f} % | {w1:.3f} % | {mx} | {rms:.3f} |"
                f" {100.0 * np.mean(gb == 0):.2f} % | {int(gb.max())} |"
            )
    print(f"\nPyTorch {torch_version} ({torch_py}); lngrad {lngrad.__version__}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "torch":
        torch_main(sys.argv[2])
    else:
        main(sys.argv[1:])
