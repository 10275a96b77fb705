"""lngrad.ascendc: the operators on the simulated device give the bits of
`lngrad run --impl ascendc` for the same inputs and options, the tiling of `lngrad tiling`."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import lngrad
import lngrad.ascendc
import oracle


def cli():
    """The lngrad command of this build (CTest sets LNGRAD_CLI)."""
    path = os.environ.get("LNGRAD_CLI")
    if not path:
        default = pathlib.Path(__file__).resolve().parents[2] / "build/dev/tools/lngrad/lngrad"
        path = str(default)
    if not os.path.exists(path):
        pytest.fail(
            f"the lngrad command is needed for this comparison: set LNGRAD_CLI (not at {path})"
        )
    return path


def run_cli(tmp_path, dy, x, mean, variance, gamma, eps, *options):
    src = tmp_path / "in"
    out = tmp_path / "out"
    src.mkdir()
    for name, a in (("dy", dy), ("x", x), ("mean", mean), ("variance", variance), ("gamma", gamma)):
        np.save(src / f"{name}.npy", a)
    subprocess.run(
        [
            cli(),
            "run",
            "--in",
            str(src),
            "--eps",
            repr(float(np.float32(eps))),
            "--impl",
            "ascendc",
            "--out",
            str(out),
            *options,
        ],
        check=True,
        capture_output=True,
    )
    return [np.load(out / f"{name}.npy") for name in ("pd_x", "res_for_gamma", "dgamma", "dbeta")]


CASES = [
    # shape [B, S, H], dtype, soc, options (python keywords, CLI flags)
    ((2, 32, 16), np.float32, "Ascend910B1", {}, []),
    ((1, 8, 17), np.float32, "Ascend910B1", {}, []),  # any H: rows padded in UB
    ((3, 5, 100), np.float16, "Ascend910B1", {"tmp": 16384}, ["--tmp", "16384"]),
    ((2, 40, 64), np.float32, "Ascend950PR_9599", {"blocks": 3}, ["--blocks", "3"]),
    (
        (4, 16, 32),
        np.float32,
        "Ascend910B1",
        {"reuse_source": True, "blocks": 2},
        ["--reuse-source", "--blocks", "2"],
    ),
    ((2, 8, 48), np.float16, "Ascend310P1", {}, []),
]


@pytest.mark.parametrize("shape,dtype,soc,kw,flags", CASES)
def test_bits_equal_the_cli(tmp_path, shape, dtype, soc, kw, flags):
    b, s, h = shape
    dy, x, mean, var, gamma = oracle.inputs(np.random.default_rng(b * s * h), b * s, h, dtype)
    dy, x = dy.reshape(shape), x.reshape(shape)
    mean, var = mean.reshape(b, s), var.reshape(b, s)
    eps = 1e-4
    pd_x, res = lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, eps, soc=soc, **kw)
    pd_gamma, pd_beta = lngrad.ascendc.layer_norm_grad_beta(dy, res, soc=soc, **kw)
    assert pd_x.shape == shape and pd_x.dtype == dtype and pd_gamma.shape == (h,)
    ref = run_cli(tmp_path, dy, x, mean, var, gamma, eps, "--soc", soc, *flags)
    for got, want in zip((pd_x, res, pd_gamma, pd_beta), ref):
        assert got.dtype == want.dtype
        assert np.array_equal(got.view(np.uint8), want.reshape(got.shape).view(np.uint8))
    # And the device's numbers are LayerNormGrad's: within the bound of the float64 oracle.
    if dtype == np.float32:
        e_pd_x, _, mag = oracle.grad(
            dy.reshape(-1, h),
            x.reshape(-1, h),
            var.reshape(-1),
            mean.reshape(-1),
            gamma,
            np.float32(eps),
        )
        assert np.all(np.abs(pd_x.reshape(-1, h) - e_pd_x) <= oracle.pd_x_bound(h, mag))


def test_torch_tensors_in_and_out():
    import torch

    dy, x, mean, var, gamma = oracle.inputs(np.random.default_rng(3), 16, 32)
    got = lngrad.ascendc.layer_norm_grad(
        *(torch.from_numpy(a) for a in (dy, x, var, mean, gamma)), 1e-5
    )
    want = lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5)
    assert all(isinstance(t, torch.Tensor) for t in got)
    for a, b in zip(got, want):
        assert np.array_equal(a.numpy(), b)


def test_tiling_equals_the_cli():
    for shape, dtype, soc, stack in (
        ((2, 32, 16), "float", "Ascend910B1", "min"),
        ((4, 64, 1024), "half", "Ascend950PR_9599", "max"),
        ((1, 8, 24, 17), "float", "Ascend910B1", 65536),
    ):
        got = lngrad.ascendc.tiling(shape, dtype, soc=soc, stack_buffer=stack)
        out = subprocess.run(
            [
                cli(),
                "tiling",
                "--shape",
                ",".join(map(str, shape)),
                "--dtype",
                dtype,
                "--soc",
                soc,
                "--stack-buffer",
                str(stack),
                "--json",
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        want = json.loads(out)
        for key in ("soc", "npu_arch", "ub_bytes", "shape", "dtype", "type_size", "reuse_source"):
            assert got[key] == want[key], key
        for api in ("LayerNormGrad", "LayerNormGradBeta"):
            for key in ("min_tmp_size", "max_tmp_size", "stack_buffer_bytes", "tiling"):
                assert got[api][key] == want[api][key], (api, key)
        assert (
            got["LayerNormGrad"]["scratch_bytes_touched"]
            == want["LayerNormGrad"]["scratch_bytes_touched"]
        )


def test_socs_lists_the_products():
    products = lngrad.ascendc.socs()
    names = [p["soc"] for p in products]
    assert "Ascend910B1" in names and "Ascend950PR_9599" in names and "Ascend310P1" in names
    p310 = next(p for p in products if p["soc"] == "Ascend310P1")
    assert p310["data_copy_pad"] is False and p310["npu_arch"] == "2002"
    out = subprocess.run(
        [cli(), "socs", "--json"], check=True, capture_output=True, text=True
    ).stdout
    assert names == [p["soc"] for p in json.loads(out)["products"]]


def test_errors():
    dy, x, mean, var, gamma = oracle.inputs(np.random.default_rng(4), 4, 17)
    with pytest.raises(ValueError, match="Ascend910Z"):
        lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, soc="Ascend910Z")
    with pytest.raises(ValueError, match="blocks"):
        lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, blocks=0)
    with pytest.raises(ValueError, match="tmp"):
        lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, tmp="lots")
    # The Atlas inference series has no DataCopyPad: H*sizeof(T) must be a multiple of 32.
    with pytest.raises(ValueError, match="32"):
        lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, soc="Ascend310P1")
    with pytest.raises(ValueError, match="stack_buffer"):
        lngrad.ascendc.tiling((1, 8, 16), stack_buffer="big")


@pytest.mark.parametrize(
    "eps, dtype, words",
    [
        (float("nan"), np.float32, r"must be finite and >= 0 \(got nan\)"),
        (-1.0, np.float32, r"must be finite and >= 0 \(got -1\)"),
        (float("inf"), np.float32, r"must be finite and >= 0 \(got inf\)"),
        (1e39, np.float32, r"1e\+39 is too large: the kernels take epsilon as a float"),
        (1e300, np.float32, r"1e\+300 is too large"),
        (65520.0, np.float16, r"6.552e\+04 is too large: for half data .* at most 65504"),
    ],
)
def test_eps_is_refused_as_the_cli_does(tmp_path, eps, dtype, words):
    # Before, NaN or -1 gave all-NaN outputs and inf, 1e39 or >= 65520 with half data all-zero
    # outputs, silently. Now the CLI's rule refuses them (lngrad.CheckEpsilon, one function).
    dy, x, mean, var, gamma = (
        a.astype(dtype) for a in oracle.inputs(np.random.default_rng(6), 4, 32)
    )
    with pytest.raises(ValueError, match="ascendc.layer_norm_grad: argument 'eps' " + words) as e:
        lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, eps)
    # The largest accepted value still runs.
    lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 65504.0)
    # `lngrad run --eps` refuses a finite value with the same words.
    if np.isfinite(eps):
        for name, a in (("dy", dy), ("x", x), ("mean", mean), ("variance", var), ("gamma", gamma)):
            np.save(tmp_path / f"{name}.npy", a)
        cli_run = subprocess.run(
            [cli(), "run", "--in", str(tmp_path), f"--eps={eps!r}", "--out", str(tmp_path / "o")],
            capture_output=True,
            text=True,
        )
        assert cli_run.returncode == 2
        said = str(e.value).split("argument 'eps' ", 1)[1]
        assert "--eps " + said in cli_run.stderr, (said, cli_run.stderr)


def test_tiling_refuses_a_shape_whose_product_overflows():
    # 1 * 1 * 2^32 * 2^32 (H0 = H) wrapped to 0 before.
    with pytest.raises(ValueError, match=r"B\*S\*H\*H0 overflows"):
        lngrad.ascendc.tiling((1, 1, 4294967296))


def test_concurrent_calls_from_threads():
    # The GIL is released during a launch: Python threads may run the device at once, on
    # different products, and each gets the bits it gets alone.
    import threading

    dy, x, mean, var, gamma = oracle.inputs(np.random.default_rng(5), 256, 64)
    want = {
        soc: lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, blocks=2, soc=soc)
        for soc in ("Ascend910B1", "Ascend950PR_9599")
    }
    failures = []

    def work(i):
        for k in range(5):
            soc = ("Ascend910B1", "Ascend950PR_9599")[(i + k) % 2]
            got = lngrad.ascendc.layer_norm_grad(dy, x, var, mean, gamma, 1e-5, blocks=2, soc=soc)
            if not all(np.array_equal(a, b) for a, b in zip(got, want[soc])):
                failures.append((i, k, soc))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
