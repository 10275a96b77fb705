"""The float64 oracle of the Python tests: the formulas of docs/math.md §1, in NumPy float64,
written for these tests (not a call into lngrad), and the error bounds of docs/math.md §6."""

import math

import numpy as np

U = 2.0**-24  # float unit roundoff


def grad(dy, x, variance, mean, gamma, eps):
    """pd_x, res_for_gamma and the magnitude `mag` of pd_x (docs/math.md §6), in float64.

    dy, x: (rows, h); variance, mean: (rows,); gamma: (h,). `variance + eps` may be replaced by
    passing eps=0 and the exact v."""
    dy, x, gamma = (np.asarray(a, np.float64) for a in (dy, x, gamma))
    v = np.asarray(variance, np.float64).reshape(-1, 1) + eps
    m = np.asarray(mean, np.float64).reshape(-1, 1)
    n = x.shape[-1]
    x1 = dy * gamma
    x2 = x - m
    rstd = v**-0.5
    pd_var = np.sum(-0.5 * x1 * x2 * rstd**3, axis=-1, keepdims=True)
    pd_mean = np.sum(-x1 * rstd, axis=-1, keepdims=True) + pd_var / n * np.sum(
        -2 * x2, axis=-1, keepdims=True
    )
    pd_x = x1 * rstd + pd_var * (2.0 / n) * x2 + pd_mean / n
    res = x2 * rstd
    pv_abs = 0.5 * np.sum(np.abs(x1 * x2), axis=-1, keepdims=True) * rstd**3
    pm_abs = np.sum(np.abs(x1), axis=-1, keepdims=True) * rstd + pv_abs / n * np.sum(
        np.abs(2 * x2), axis=-1, keepdims=True
    )
    mag = np.abs(x1) * rstd + pv_abs * (2.0 / n) * np.abs(x2) + pm_abs / n
    return pd_x, res, mag


def beta(dy, res):
    """dgamma, dbeta and the sums of absolute terms Σ|dy·res|, Σ|dy| per column, in float64."""
    dy, res = np.asarray(dy, np.float64), np.asarray(res, np.float64)
    return ((dy * res).sum(0), dy.sum(0), np.abs(dy * res).sum(0), np.abs(dy).sum(0))


def forward(x, gamma, beta_, eps):
    """y, mean, biased variance in float64."""
    x = np.asarray(x, np.float64)
    mean = x.mean(-1)
    var = ((x - mean[..., None]) ** 2).mean(-1)
    y = (x - mean[..., None]) / np.sqrt(var[..., None] + eps) * np.asarray(
        gamma, np.float64
    ) + np.asarray(beta_, np.float64)
    return y, mean, var


def pd_x_bound(h, mag):
    """docs/math.md §6.1: (2D + 14)·u·mag with D = ceil(h/16) + 9."""
    d = math.ceil(h / 16) + 9
    return (2 * d + 14) * U * mag


def half_spacing(v):
    """The spacing of the float16 values at |v| (2^-24 among the subnormals)."""
    a = np.abs(np.asarray(v, np.float64))
    e = np.floor(np.log2(np.maximum(a, 2.0**-14)))
    return np.exp2(e - 10)


def half_fast_ok(out, exact, h, mag):
    """docs/math.md §6.4, the fast half evaluation: the float bound of pd_x plus half the half
    spacing at the output."""
    got = np.asarray(out, np.float16).astype(np.float64)
    return np.abs(got - exact) <= pd_x_bound(h, mag) + 0.5 * half_spacing(got) + 16 * 2.0**-149


def half_ulps(out, exact):
    """How many half ulps `out` (float16) is from `exact` (float64) rounded to half."""
    rounded = np.asarray(exact, np.float64).astype(np.float16)
    a = np.asarray(out, np.float16).view(np.int16).astype(np.int64)
    b = rounded.view(np.int16).astype(np.int64)
    # Sign-magnitude to a monotonic integer line.
    a = np.where(a < 0, -(a & 0x7FFF), a)
    b = np.where(b < 0, -(b & 0x7FFF), b)
    return np.abs(a - b)


def bf16_spacing(v):
    """The spacing of the bfloat16 values at |v| (8 significant bits, float's exponent range)."""
    a = np.abs(np.asarray(v, np.float64))
    _, e = np.frexp(np.maximum(a, 2.0**-126))  # a = m * 2^e, m in [0.5, 1): exact
    return np.ldexp(1.0, e - 8)


def bf16_round(v):
    """float64 values rounded to the nearest bfloat16 value, ties to even (in float64: exact)."""
    v = np.asarray(v, np.float64)
    s = bf16_spacing(v)
    return np.round(v / s) * s  # np.round: half to even; v / s is exact (a power of two)


def bf16_fast_ok(out, exact, h, mag):
    """docs/math.md §6.6b: the float bound of pd_x plus half the bfloat16 spacing at the output."""
    got = np.asarray(out, np.float64)
    return np.abs(got - exact) <= pd_x_bound(h, mag) + 0.5 * bf16_spacing(got) + 16 * 2.0**-149


def inputs(rng, rows, h, dtype=np.float32, *, mean_shift=0.3):
    """dy, x, mean, variance (the rows' own statistics) and gamma, rounded to dtype; the rows
    are offset so that sums do not cancel by accident."""
    x = (rng.standard_normal((rows, h)) * 1.5 + mean_shift).astype(dtype)
    dy = rng.standard_normal((rows, h)).astype(dtype)
    gamma = (rng.standard_normal(h) * 0.5 + 1.0).astype(dtype)
    xf = x.astype(np.float64)
    mean = xf.mean(-1).astype(dtype)
    variance = xf.var(-1).astype(dtype)
    return dy, x, mean, variance, gamma
