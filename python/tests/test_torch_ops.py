"""The compiled torch operators (torch.ops.lngrad.*, python/torch_ops; issue 31): loaded when
built for this torch, the same bits as the Python path (torch.autograd.Function over the
extension module, an independent route to the same library), Meta kernels, inference mode, and
torch.compile without graph breaks where torch has it (torch >= 2; torch 1.13 has no
torch.compile: the eager path is what runs there)."""

import importlib
import os

import pytest
import torch

import lngrad.torch as lt


def _built_for_this_torch():
    try:
        info = importlib.import_module("lngrad._torch_ops_info")
    except ImportError:
        return False
    return info.TORCH_VERSION == torch.__version__


def test_operators_are_used_when_built_for_this_torch():
    if os.environ.get("LNGRAD_TORCH_OPS") == "0":
        assert not lt.OPERATORS
        return
    assert lt.OPERATORS == _built_for_this_torch()
    # The build says whether it made them (CTest sets this where CMake built _lngrad_torch).
    if os.environ.get("LNGRAD_EXPECT_TORCH_OPS") == "1":
        assert lt.OPERATORS


needs_ops = pytest.mark.skipif(not lt.OPERATORS, reason="the torch operators are not loaded")


def _python_path(x, weight, bias, eps, half_eval):
    """The Python path, called directly: lngrad.torch's autograd.Function."""
    h = weight.numel()
    return lt._LayerNormFunction.apply(x, weight, bias, h, eps, None, half_eval)


@needs_ops
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("half_eval", ["fast", "correctly-rounded"])
@pytest.mark.parametrize("shape", [(64, 16), (3, 5, 40), (7, 1)])
def test_same_bits_as_the_python_path(dtype, half_eval, shape):
    torch.manual_seed(4)
    h = shape[-1]
    x = (torch.randn(shape) * 2 + 0.5).to(dtype)
    w = (torch.randn(h) * 0.5 + 1).to(dtype)
    b = torch.randn(h).to(dtype)
    dy = torch.randn(shape).to(dtype)
    results = []
    for run in (
        lambda x, w, b: torch.ops.lngrad.layer_norm(x, [h], w, b, 1e-5, None, half_eval),
        lambda x, w, b: _python_path(x, w, b, 1e-5, half_eval),
    ):
        xs, ws, bs = (t.clone().requires_grad_() for t in (x, w, b))
        y = run(xs, ws, bs)
        y.backward(dy)
        results.append((y.detach(), xs.grad, ws.grad, bs.grad))
    for a, b in zip(*results):
        assert a.dtype == dtype and torch.equal(a, b)


@needs_ops
def test_meta_kernels_give_shapes_without_data():
    x = torch.empty(6, 32, device="meta", dtype=torch.float16)
    w = torch.empty(32, device="meta", dtype=torch.float16)
    y, mean, var = torch.ops.lngrad.layer_norm_forward(x, [32], w, None, 1e-5)
    assert y.device.type == "meta" and y.shape == (6, 32) and y.dtype == torch.float16
    assert mean.shape == (6,) and var.shape == (6,) and mean.dtype == torch.float32
    dx, dg, db = torch.ops.lngrad.layer_norm_backward(x, x, [32], mean, var, w, 1e-5)
    assert dx.shape == (6, 32) and dg.shape == (32,) and db.dtype == torch.float16
    x3 = torch.empty(2, 3, 4, 8, device="meta")
    y, mean, var = torch.ops.lngrad.layer_norm_forward(x3, [4, 8], None, None, 1e-5)
    assert y.shape == (2, 3, 4, 8) and mean.shape == (2, 3)
    dx, dg, db = torch.ops.lngrad.layer_norm_backward(x3, x3, [4, 8], mean, var, None, 1e-5)
    assert dx.shape == (2, 3, 4, 8) and dg.shape == (4, 8) and db.shape == (4, 8)
    y = torch.ops.lngrad.layer_norm(x.view(2, 3, 32), [32], w, None)
    assert y.shape == (2, 3, 32) and y.device.type == "meta"


@needs_ops
def test_inference_mode_runs_the_forward_alone():
    torch.manual_seed(5)
    mod = lt.LayerNorm(24)
    x = torch.randn(5, 24)
    expected = mod(x).detach()
    with torch.inference_mode():
        y = mod(x)
    assert not y.requires_grad and torch.equal(y, expected)


@needs_ops
def test_forward_and_backward_operators_directly():
    # The steps of layer_norm's autograd, called by hand, give what the module gives.
    torch.manual_seed(6)
    x = torch.randn(4, 3, 10)
    w, b, dy = torch.randn(3, 10), torch.randn(3, 10), torch.randn(4, 3, 10)
    y, mean, var = torch.ops.lngrad.layer_norm_forward(x, [3, 10], w, b, 1e-5)
    dx, dg, db = torch.ops.lngrad.layer_norm_backward(dy, x, [3, 10], mean, var, w, 1e-5)
    xs, ws, bs = (t.clone().requires_grad_() for t in (x, w, b))
    ys = torch.ops.lngrad.layer_norm(xs, [3, 10], ws, bs)
    ys.backward(dy)
    for a, e in ((y, ys.detach()), (dx, xs.grad), (dg, ws.grad), (db, bs.grad)):
        assert torch.equal(a, e)
    assert mean.shape == (4,) and torch.allclose(mean, x.view(4, -1).mean(-1), atol=1e-6)
    with pytest.raises(RuntimeError, match="mean and variance must be float32"):
        torch.ops.lngrad.layer_norm_backward(dy, x, [3, 10], mean.half(), var, w, 1e-5)
    with pytest.raises(RuntimeError, match="the operators take CPU float32, float16 or bfloat16"):
        torch.ops.lngrad.layer_norm_forward(x.double(), [3, 10], None, None, 1e-5)


@needs_ops
def test_operator_errors_name_the_rule():
    x = torch.randn(3, 8)
    with pytest.raises(ValueError, match="half_eval must be 'fast' or 'correctly-rounded'"):
        torch.ops.lngrad.layer_norm(x, [8], None, None, 1e-5, None, "exact")
    with pytest.raises(ValueError, match="num_threads must be >= 0"):
        torch.ops.lngrad.layer_norm(x, [8], None, None, 1e-5, -1, "fast")
    with pytest.raises(RuntimeError, match="weight has shape \\[7\\]"):
        torch.ops.lngrad.layer_norm(x, [8], torch.ones(7), None, 1e-5, None, "fast")
    with pytest.raises(ValueError, match="epsilon"):
        torch.ops.lngrad.layer_norm(x, [8], None, None, float("nan"), None, "fast")


def _model(norm):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(32, 64),
        norm(64),
        torch.nn.GELU(),
        torch.nn.Linear(64, 64),
        norm(64),
        torch.nn.Linear(64, 8),
    )


def _train(model, steps, compile_it):
    run = torch.compile(model) if compile_it else model
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    torch.manual_seed(1)
    data, target = torch.randn(16, 32), torch.randn(16, 8)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(run(data), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@needs_ops
@pytest.mark.skipif(not hasattr(torch, "compile"), reason="torch.compile needs torch >= 2")
def test_torch_compile_has_no_graph_break_and_trains_as_torch():
    import torch._dynamo

    torch._dynamo.reset()
    model = _model(lt.LayerNorm)
    explanation = torch._dynamo.explain(model)(torch.randn(16, 32))
    assert explanation.graph_break_count == 0, explanation.break_reasons
    assert explanation.graph_count == 1
    ours = _train(_model(lt.LayerNorm), 20, compile_it=True)
    ref = _train(_model(torch.nn.LayerNorm), 20, compile_it=False)
    for a, b in zip(ours, ref):
        assert abs(a - b) <= 1e-5 * abs(b), (ours, ref)


def _big_forward(rows=1024, h=512, seed=7):
    """A float32 forward whose output (2 MiB) comes from the output cache."""
    torch.manual_seed(seed)
    x = torch.randn(rows, h)
    return x, torch.ops.lngrad.layer_norm_forward(x, [h], None, None, 1e-5)


@needs_ops
def test_output_cache_reuses_freed_outputs_without_changing_results():
    lt.empty_cache()
    x, (y, mean, var) = _big_forward()
    expected = torch.nn.functional.layer_norm(x, [x.shape[1]], eps=1e-5)
    ptr = y.data_ptr()
    y.fill_(float("nan"))  # what a reused block holds must not reach the next output
    del y
    kept = lt.cache_info()["kept_bytes"]
    assert kept >= x.numel() * 4
    before = lt.cache_info()
    y2 = torch.ops.lngrad.layer_norm_forward(x, [x.shape[1]], None, None, 1e-5)[0]
    after = lt.cache_info()
    assert y2.data_ptr() == ptr
    assert after["reused"] == before["reused"] + 1 and after["new"] == before["new"]
    assert after["kept_bytes"] == kept - x.numel() * 4
    assert torch.allclose(y2, expected, rtol=0, atol=1e-5)  # torch's own forward, float32
    # The same bits as a block fresh from the system.
    del y2
    lt.empty_cache()
    assert lt.cache_info()["kept_bytes"] == 0
    y3 = torch.ops.lngrad.layer_norm_forward(x, [x.shape[1]], None, None, 1e-5)[0]
    assert lt.cache_info()["new"] == after["new"] + 1
    _, (y4, _, _) = _big_forward()
    assert torch.equal(y3, y4)


@needs_ops
def test_output_cache_does_not_hand_out_much_larger_blocks():
    lt.empty_cache()
    _, (y, _, _) = _big_forward(rows=2048)  # 4 MiB
    del y
    before = lt.cache_info()
    _, (small, _, _) = _big_forward(rows=1024)  # 2 MiB: the 4 MiB block is more than 1/4 spare
    after = lt.cache_info()
    assert after["new"] == before["new"] + 1 and after["kept_bytes"] == before["kept_bytes"]
    _, (near, _, _) = _big_forward(rows=1800)  # within a quarter: takes the kept block
    assert lt.cache_info()["reused"] == after["reused"] + 1
    assert small.shape == (1024, 512) and near.shape == (1800, 512)


@needs_ops
def test_cached_outputs_are_ordinary_tensors():
    x, (y, _, _) = _big_forward()
    first = y[:3].clone()
    y.resize_(2048, 512)  # a storage that grows (through the same allocator)
    assert torch.equal(y[:3], first)
    y.add_(1)
    assert y.is_contiguous() and y.device.type == "cpu"
    # Autograd accumulates into a cached gradient in place, as into any other.
    xs = x.clone().requires_grad_()
    for _ in range(2):
        torch.ops.lngrad.layer_norm(xs, [512], None, None, 1e-5).sum().backward()
    assert xs.grad.shape == x.shape and torch.isfinite(xs.grad).all()


@needs_ops
@pytest.mark.parametrize("value,kept", [("0", False), ("64", True), ("x", None)])
def test_output_cache_limit_from_the_environment(value, kept):
    import subprocess
    import sys

    code = (
        "import torch, lngrad.torch as lt\n"
        "x = torch.randn(1024, 512)\n"
        "y = torch.ops.lngrad.layer_norm_forward(x, [512], None, None, 1e-5)[0]\n"
        "del y\n"
        "print(lt.cache_info()['kept_bytes'], lt.cache_info()['limit_bytes'])\n"
    )
    env = dict(os.environ, LNGRAD_TORCH_CACHE_MB=value)
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if kept is None:
        assert run.returncode != 0
        assert "LNGRAD_TORCH_CACHE_MB must be a whole number of MiB >= 0, got 'x'" in run.stderr
        return
    assert run.returncode == 0, run.stderr
    kept_bytes, limit = map(int, run.stdout.split())
    assert limit == int(value) << 20
    assert (kept_bytes == 1024 * 512 * 4) if kept else kept_bytes == 0
