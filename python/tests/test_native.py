"""lngrad's native functions from Python, against the float64 oracle (oracle.py)."""

import threading
import time

import numpy as np
import pytest

import lngrad
import oracle

SHAPES = [(1, 1), (3, 7), (5, 17), (64, 16), (33, 100), (4, 1000), (2, 4095)]


def rng(seed=0):
    return np.random.default_rng(seed)


def torch_stats(x, eps):
    """PyTorch's statistics for x: mean and rstd = 1/sqrt(var + eps) (float32, via float64)."""
    xf = x.astype(np.float64)
    mean = xf.mean(-1)
    rstd = 1.0 / np.sqrt(xf.var(-1) + eps)
    return mean.astype(np.float32), rstd.astype(np.float32)


@pytest.mark.parametrize("rows,h", SHAPES)
def test_layer_norm_grad_float_within_bound(rows, h):
    dy, x, mean, var, gamma = oracle.inputs(rng(rows * 7919 + h), rows, h)
    eps = 1e-5
    pd_x, res = lngrad.layer_norm_grad(dy, x, var, mean, gamma, eps)
    assert pd_x.dtype == np.float32 and pd_x.shape == x.shape and res.shape == x.shape
    e_pd_x, e_res, mag = oracle.grad(dy, x, var, mean, gamma, eps)
    assert np.all(np.abs(pd_x - e_pd_x) <= oracle.pd_x_bound(h, mag))
    assert np.all(np.abs(res - e_res) <= 3 * oracle.U * np.abs(e_res))


@pytest.mark.parametrize("rows,h", SHAPES)
def test_layer_norm_grad_half_within_one_ulp(rows, h):
    dy, x, mean, var, gamma = oracle.inputs(rng(rows * 31 + h), rows, h, np.float16)
    eps = 1e-5
    pd_x, res = lngrad.layer_norm_grad(dy, x, var, mean, gamma, eps, half_eval="correctly-rounded")
    assert pd_x.dtype == np.float16 and res.dtype == np.float16
    e_pd_x, e_res, _ = oracle.grad(dy, x, var, mean, gamma, eps)
    assert oracle.half_ulps(pd_x, e_pd_x).max() <= 1
    assert oracle.half_ulps(res, e_res).max() <= 1


@pytest.mark.parametrize("rows,h", SHAPES)
def test_layer_norm_grad_half_fast_within_its_bound(rows, h):
    # The default half evaluation: the float bound plus half a half spacing (docs/math.md §6.4);
    # res_for_gamma is evaluated as in the correctly rounded mode.
    dy, x, mean, var, gamma = oracle.inputs(rng(rows * 37 + h), rows, h, np.float16)
    eps = 1e-5
    pd_x, res = lngrad.layer_norm_grad(dy, x, var, mean, gamma, eps)
    pd_x_f, res_f = lngrad.layer_norm_grad(dy, x, var, mean, gamma, eps, half_eval="fast")
    assert np.array_equal(pd_x.view(np.uint16), pd_x_f.view(np.uint16))
    e_pd_x, e_res, mag = oracle.grad(dy, x, var, mean, gamma, eps)
    assert np.all(oracle.half_fast_ok(pd_x, e_pd_x, h, mag))
    assert oracle.half_ulps(res, e_res).max() <= 1
    with pytest.raises(
        ValueError,
        match=r"argument 'half_eval' must be 'fast' or "
        r"'correctly-rounded', got 'exact'",
    ):
        lngrad.layer_norm_grad(dy, x, var, mean, gamma, eps, half_eval="exact")


@pytest.mark.parametrize("rows,h", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_layer_norm_grad_beta_sums(rows, h, dtype):
    r = rng(rows + 1000 * h)
    dy = r.standard_normal((rows, h)).astype(dtype)
    res = r.standard_normal((rows, h)).astype(dtype)
    dgamma, dbeta = lngrad.layer_norm_grad_beta(dy, res)
    assert dgamma.shape == (h,) and dgamma.dtype == dtype
    e_g, e_b, abs_g, abs_b = oracle.beta(dy, res)
    if dtype == np.float32:
        assert np.all(np.abs(dgamma - e_g) <= rows * oracle.U * abs_g)
        assert np.all(np.abs(dbeta - e_b) <= rows * oracle.U * abs_b)
    else:  # float sums rounded once to half: within 1 ulp here (docs/math.md §6.4)
        assert oracle.half_ulps(dgamma, e_g).max() <= 1
        assert oracle.half_ulps(dbeta, e_b).max() <= 1


@pytest.mark.parametrize("rows,h", SHAPES)
def test_layer_norm_backward_torch_convention(rows, h):
    dy, x, _, _, gamma = oracle.inputs(rng(rows * 3 + h * 5), rows, h)
    eps = 1e-5
    mean, rstd = torch_stats(x, eps)
    dx, dgamma, dbeta = lngrad.layer_norm_backward(dy, x, mean, rstd, gamma)
    # The oracle takes v = 1/rstd^2 exactly (the library rounds it to float once: within the
    # bound's second-order slack).
    v = 1.0 / rstd.astype(np.float64) ** 2
    e_dx, e_res, mag = oracle.grad(dy, x, v, mean, gamma, 0.0)
    assert np.all(np.abs(dx - e_dx) <= oracle.pd_x_bound(h, mag))
    e_g, e_b, abs_g, abs_b = oracle.beta(dy, e_res)
    assert np.all(np.abs(dgamma - e_g) <= (rows + 3) * oracle.U * abs_g + 4 * oracle.U * abs_g)
    assert np.all(np.abs(dbeta - e_b) <= rows * oracle.U * abs_b)


def test_layer_norm_backward_is_grad_then_beta_bitwise():
    # docs/math.md §6.5: float dx, dgamma, dbeta of the fused path equal the separate ones.
    dy, x, mean, var, gamma = oracle.inputs(rng(5), 40, 96)
    rstd = lngrad.variance_to_rstd(var, 1e-3)
    variance0 = lngrad.rstd_to_variance(rstd, 0.0)
    pd_x, res = lngrad.layer_norm_grad(dy, x, variance0, mean, gamma, 0.0)
    dgamma_s, dbeta_s = lngrad.layer_norm_grad_beta(dy, res)
    dx, dgamma, dbeta = lngrad.layer_norm_backward(dy, x, mean, rstd, gamma)
    assert np.array_equal(dx, pd_x)
    assert np.array_equal(dgamma, dgamma_s) and np.array_equal(dbeta, dbeta_s)
    dx_v, dgamma_v, dbeta_v = lngrad.layer_norm_backward_variance(dy, x, mean, var, gamma, 1e-3)
    pd_x_v, res_v = lngrad.layer_norm_grad(dy, x, var, mean, gamma, 1e-3)
    assert np.array_equal(dx_v, pd_x_v)
    assert np.array_equal(dgamma_v, lngrad.layer_norm_grad_beta(dy, res_v)[0])


@pytest.mark.parametrize("rows,h", [(64, 16), (20, 17), (8, 1000), (100, 768)])
@pytest.mark.parametrize("half_eval", ["correctly-rounded", "fast"])
def test_layer_norm_backward_half_data_float_statistics(rows, h, half_eval):
    # Half data with PyTorch's float32 statistics: evaluated at the float statistics (no half
    # rounding of them). Correctly rounded: every dx within 1 half ulp of the oracle's at those
    # statistics; fast: within its bound.
    dy, x, _, _, gamma = oracle.inputs(rng(rows + h), rows, h, np.float16)
    mean, rstd = torch_stats(x.astype(np.float32), 1e-5)
    dx, dgamma, dbeta = lngrad.layer_norm_backward(dy, x, mean, rstd, gamma, half_eval=half_eval)
    assert dx.dtype == np.float16 and dgamma.dtype == np.float16
    variance = lngrad.rstd_to_variance(rstd, 0.0)  # what the library evaluates at
    e_dx, e_res, mag = oracle.grad(dy, x, variance, mean, gamma, 0.0)
    if half_eval == "fast":
        assert np.all(oracle.half_fast_ok(dx, e_dx, h, mag))
    else:
        ulps = oracle.half_ulps(dx, e_dx)
        assert ulps.max() <= 1 and np.mean(ulps == 0) >= 0.999
    e_g, e_b, _, _ = oracle.beta(dy, e_res)
    assert oracle.half_ulps(dbeta, e_b).max() <= 1
    assert oracle.half_ulps(dgamma, e_g).max() <= 1


def test_float_statistics_of_half_values_give_the_half_bits():
    # The float-statistics path and the half path are one evaluation: statistics that are half
    # values give identical bits either way.
    dy, x, mean, var, gamma = oracle.inputs(rng(6), 24, 40, np.float16)
    half = lngrad.layer_norm_backward_variance(dy, x, mean, var, gamma, 1e-3)
    mixed = lngrad.layer_norm_backward_variance(
        dy, x, mean.astype(np.float32), var.astype(np.float32), gamma, 1e-3
    )
    for a, b in zip(half, mixed):
        assert a.dtype == np.float16 and np.array_equal(a.view(np.uint16), b.view(np.uint16))
    # The forward's float statistics are its half statistics before their rounding to half.
    y16, m16, v16 = lngrad.layer_norm(x, gamma, gamma, 1e-5)
    y32, m32, v32 = lngrad.layer_norm(x, gamma, gamma, 1e-5, float32_stats=True)
    assert m32.dtype == np.float32 and np.array_equal(y16, y32)
    assert np.array_equal(m32.astype(np.float16), m16) and np.array_equal(
        v32.astype(np.float16), v16
    )
    _, e_mean, e_var = oracle.forward(x, gamma, gamma, 1e-5)
    assert np.allclose(m32, e_mean, rtol=2**-23, atol=0)
    assert np.allclose(v32, e_var, rtol=2**-23, atol=0)


def test_gamma_none_is_ones():
    dy, x, _, _, _ = oracle.inputs(rng(7), 8, 24)
    mean, rstd = torch_stats(x, 1e-5)
    ones = np.ones(24, np.float32)
    for a, b in zip(
        lngrad.layer_norm_backward(dy, x, mean, rstd),
        lngrad.layer_norm_backward(dy, x, mean, rstd, ones),
    ):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_empty_batch(dtype):
    h = 12
    dy = np.zeros((0, h), dtype)
    x = np.zeros((0, h), dtype)
    stats = np.zeros((0,), np.float32)
    gamma = np.ones(h, dtype)
    dx, dgamma, dbeta = lngrad.layer_norm_backward(dy, x, stats, stats, gamma)
    assert dx.shape == (0, h) and dx.dtype == dtype
    assert np.array_equal(dgamma, np.zeros(h, dtype)) and np.array_equal(dbeta, np.zeros(h, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_bitwise_identical_for_every_thread_count(dtype):
    dy, x, mean, var, gamma = oracle.inputs(rng(8), 3000, 64, dtype)
    rstd = (1 / np.sqrt(var.astype(np.float64) + 1e-5)).astype(np.float32)
    runs = [
        lngrad.layer_norm_backward(dy, x, mean.astype(np.float32), rstd, gamma, num_threads=n)
        for n in (1, 2, 3, 7, None)
    ]
    for run in runs[1:]:
        for a, b in zip(runs[0], run):
            assert np.array_equal(a, b)


def test_layer_norm_forward():
    r = rng(9)
    x = (r.standard_normal((3, 5, 48)) + 2).astype(np.float32)
    gamma = r.standard_normal(48).astype(np.float32)
    beta_ = r.standard_normal(48).astype(np.float32)
    y, mean, var = lngrad.layer_norm(x, gamma, beta_, 1e-5)
    assert y.shape == x.shape and mean.shape == (3, 5) and var.shape == (3, 5)
    e_y, e_mean, e_var = oracle.forward(x, gamma, beta_, 1e-5)
    assert np.allclose(mean, e_mean, rtol=1e-6, atol=1e-6)
    assert np.allclose(var, e_var, rtol=1e-5, atol=1e-7)
    assert np.allclose(y, e_y, rtol=1e-5, atol=1e-5)
    y2, _, _ = lngrad.layer_norm(x)
    e_y2, _, _ = oracle.forward(x, np.ones(48), np.zeros(48), 1e-5)
    assert np.allclose(y2, e_y2, rtol=1e-5, atol=1e-5)
    yh, _, _ = lngrad.layer_norm(
        x.astype(np.float16), gamma.astype(np.float16), beta_.astype(np.float16), 1e-5
    )
    e_yh, _, _ = oracle.forward(
        x.astype(np.float16), gamma.astype(np.float16), beta_.astype(np.float16), 1e-5
    )
    assert oracle.half_ulps(yh, e_yh).max() <= 1


def test_rstd_variance_round_trip():
    var = np.array([0.5, 1.0, 2.0, 1e-3], np.float32)
    rstd = lngrad.variance_to_rstd(var, 1e-5)
    assert np.allclose(rstd, 1 / np.sqrt(var.astype(np.float64) + 1e-5), rtol=1e-7)
    assert np.allclose(lngrad.rstd_to_variance(rstd, 1e-5), var, rtol=1e-6)
    with pytest.raises(ValueError, match="rstd"):
        lngrad.rstd_to_variance(np.array([-1.0], np.float32), 1e-5)


def test_inputs_are_not_modified_nor_copied_back():
    dy, x, mean, var, gamma = oracle.inputs(rng(10), 16, 32)
    before = [a.copy() for a in (dy, x, mean, var, gamma)]
    lngrad.layer_norm_grad(dy, x, var, mean, gamma, 1e-5)
    for a, b in zip((dy, x, mean, var, gamma), before):
        assert np.array_equal(a, b)
    # Read-only inputs are fine (nothing is written to them).
    for a in (dy, x, mean, var, gamma):
        a.setflags(write=False)
    lngrad.layer_norm_grad(dy, x, var, mean, gamma, 1e-5)


def test_leading_axes_and_statistics_shapes():
    dy, x, mean, var, gamma = oracle.inputs(rng(11), 12, 20)
    flat = lngrad.layer_norm_grad(dy, x, var, mean, gamma, 1e-5)
    shaped = lngrad.layer_norm_grad(
        dy.reshape(3, 4, 20),
        x.reshape(3, 4, 20),
        var.reshape(3, 4, 1),
        mean.reshape(12, 1),
        gamma,
        1e-5,
    )
    assert shaped[0].shape == (3, 4, 20)
    assert np.array_equal(flat[0], shaped[0].reshape(12, 20))


def test_non_contiguous_input_is_rejected():
    dy, x, mean, var, gamma = oracle.inputs(rng(12), 8, 32)
    with pytest.raises(ValueError, match=r"argument 'x' must be C-contiguous"):
        lngrad.layer_norm_grad(dy, x[:, ::2], var, mean, gamma[::2], 1e-5)
    with pytest.raises(ValueError, match=r"argument 'dy' must be C-contiguous"):
        lngrad.layer_norm_grad_beta(np.asfortranarray(dy), x)
    with pytest.raises(ValueError, match=r"argument 'gamma' must be C-contiguous"):
        lngrad.layer_norm_backward(dy, x, mean, var, np.repeat(gamma, 2)[::2])


def test_argument_errors_name_the_argument():
    dy, x, mean, var, gamma = oracle.inputs(rng(13), 4, 8)
    with pytest.raises(
        TypeError, match=r"argument 'x' must be float32, float16 or bfloat16, not float64"
    ):
        lngrad.layer_norm_grad(dy, x.astype(np.float64), var, mean, gamma, 1e-5)
    with pytest.raises(TypeError, match=r"argument 'gamma' is float16 but 'x' is float32"):
        lngrad.layer_norm_grad(dy, x, var, mean, gamma.astype(np.float16), 1e-5)
    with pytest.raises(ValueError, match=r"argument 'dy' has shape \(4, 9\)"):
        lngrad.layer_norm_grad(np.zeros((4, 9), np.float32), x, var, mean, gamma, 1e-5)
    with pytest.raises(ValueError, match=r"argument 'mean' has 3 elements"):
        lngrad.layer_norm_grad(dy, x, var, mean[:3], gamma, 1e-5)
    with pytest.raises(TypeError, match=r"argument 'x' must be an array"):
        lngrad.layer_norm_grad(dy, [[1.0] * 8] * 4, var, mean, gamma, 1e-5)
    with pytest.raises(TypeError, match=r"argument 'res_for_gamma' is None"):
        lngrad.layer_norm_grad_beta(dy, None)
    with pytest.raises(ValueError, match=r"epsilon"):
        lngrad.layer_norm_grad(dy, x, var, mean, gamma, -1.0)
    # A finite eps beyond the largest float is named as given, not as the inf it would become.
    for call in (
        lambda e: lngrad.layer_norm_grad(dy, x, var, mean, gamma, e),
        lambda e: lngrad.layer_norm(x, eps=e),
        lambda e: lngrad.layer_norm_backward_variance(dy, x, mean, var, gamma, eps=e),
        lambda e: lngrad.rstd_to_variance(var, e),
    ):
        with pytest.raises(ValueError, match=r"argument 'eps' 1e\+300 is too large: .*epsilon"):
            call(1e300)
    with pytest.raises(ValueError, match=r"num_threads"):
        lngrad.layer_norm_backward(dy, x, mean, var, gamma, num_threads=-1)


def test_gil_is_released():
    # Another Python thread runs while one long call computes in C++: it records times that
    # fall inside the call (with the GIL held it could not run at all then). On a loaded machine
    # the other thread may simply not be scheduled during one call, so up to five calls are
    # tried; with the GIL held none of them could ever see it run.
    dy, x, mean, var, gamma = oracle.inputs(rng(14), 8192, 1024)
    best = 0
    for _ in range(5):
        times = []
        stop = threading.Event()

        def count():
            while not stop.is_set():
                times.append(time.perf_counter())

        t = threading.Thread(target=count)
        t.start()
        try:
            while not times:
                time.sleep(0.001)
            start = time.perf_counter()
            lngrad.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, num_threads=1)
            end = time.perf_counter()
        finally:
            stop.set()
            t.join()
        margin = (end - start) / 4
        best = max(best, len([v for v in times if start + margin < v < end - margin]))
        if best > 10:
            break
    assert best > 10
