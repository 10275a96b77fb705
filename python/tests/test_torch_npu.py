"""The torch_npu stand-in (python/torch_npu; issue 31): the npu device type, copies between the
CPU and the device (bitwise, every dtype the samples use, non-contiguous and converting ones), the
device functions of torch.npu, the operators it provides and the error for those it does not,
Module.npu, and torch_npu.testing.testcase's assertRtolEqual against a separate NumPy reading of
its rule. Kernels on npu tensors: CTest python.torch_npu_op."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torch_npu = pytest.importorskip(
    "torch_npu", reason="torch_npu was not built (no torch C++ package)"
)
from torch_npu.testing.testcase import TestCase  # noqa: E402

DTYPES = [
    torch.float32,
    torch.float16,
    torch.bfloat16,
    torch.int32,
    torch.int64,
    torch.int8,
    torch.bool,
]


def _random(shape, dtype, seed=3):
    gen = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return torch.randn(shape, generator=gen).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    return torch.randint(-100, 100, shape, generator=gen).to(dtype)


def test_the_device_type():
    x = torch.zeros(3).npu()
    expected = "npu" if hasattr(torch.utils, "rename_privateuse1_backend") else "privateuseone"
    assert torch_npu.DEVICE_TYPE == expected
    assert x.device == torch.device(expected, 0)
    assert x.is_npu and not torch.zeros(1).is_npu
    assert torch.npu is torch_npu.npu


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_round_trip_is_bitwise(dtype):
    x = _random((5, 33), dtype)
    y = x.npu()
    assert y.dtype == dtype and y.shape == x.shape
    assert torch.equal(y.cpu(), x)


def test_empty_and_empty_like_are_device_tensors():
    a = torch.empty(4, 6, device=torch.zeros(1).npu().device, dtype=torch.float16)
    b = torch.empty_like(a)
    assert a.device == b.device and b.dtype == torch.float16 and b.shape == (4, 6)
    assert torch.empty(0, device=a.device).cpu().numel() == 0


def test_non_contiguous_and_converting_copies():
    x = _random((6, 10), torch.float32)
    y = x.npu()
    assert torch.equal(y[:, 2:7].cpu(), x[:, 2:7])
    assert torch.equal(y.t().cpu(), x.t())
    assert torch.equal(y.to(torch.float16).cpu(), x.to(torch.float16))
    assert torch.equal(x.t().npu().cpu(), x.t())
    z = torch.zeros(10, 6).npu()
    z.copy_(y.t())  # device to device, transposed
    assert torch.equal(z.cpu(), x.t())


def test_views_share_device_memory():
    y = torch.arange(12, dtype=torch.float32).npu()
    v = y.view(3, 4)
    v[1].fill_(-1.0)
    expected = torch.arange(12, dtype=torch.float32)
    expected[4:8] = -1.0
    assert torch.equal(y.cpu(), expected)


def test_reshape_and_unsqueeze_are_views():
    x = _random((4, 6), torch.float32)
    y = x.npu()
    assert torch.equal(y.reshape(6, 4).cpu(), x.reshape(6, 4))
    assert torch.equal(y.unsqueeze(0).cpu(), x.unsqueeze(0))
    assert torch.equal(y.t().reshape(24).cpu(), x.t().reshape(24))  # a copy: not a view


def test_fill_and_zero():
    y = torch.empty(7, 3).npu()
    y.fill_(2.5)
    assert torch.equal(y.cpu(), torch.full((7, 3), 2.5))
    y.zero_()
    assert torch.equal(y.cpu(), torch.zeros(7, 3))
    assert torch.equal(torch.zeros(2, 2).npu().cpu(), torch.zeros(2, 2))


def test_device_functions():
    assert torch.npu.is_available()
    assert torch.npu.device_count() == 8
    assert torch.npu.current_device() == 0
    assert torch.npu.get_soc_name()  # the simulated product
    torch.npu.set_device(2)
    try:
        assert torch.npu.current_device() == 2
        assert torch.zeros(1).npu().device.index == 2
        assert torch.ones(2).npu(5).device.index == 5
        torch.npu.synchronize()
        torch.npu.synchronize(5)
    finally:
        torch.npu.set_device(0)


def test_device_errors_name_the_device():
    with pytest.raises(RuntimeError, match="device index 8 is out of range.*8 devices"):
        torch.npu.set_device(8)
    with pytest.raises(RuntimeError, match="device index 9 is out of range"):
        torch.zeros(1).npu(9)
    with pytest.raises(ValueError, match="is not an npu device"):
        torch.npu.synchronize("cpu")


def test_operators_without_a_kernel_name_themselves():
    y = torch.ones(4).npu()
    with pytest.raises(
        NotImplementedError, match=r"'aten::\w+.*' has no kernel for the simulated npu device"
    ):
        y + y


def test_module_npu_moves_parameters_and_buffers():
    m = torch.nn.BatchNorm1d(4).npu()
    assert all(p.is_npu for p in m.parameters()) and all(b.is_npu for b in m.buffers())
    assert torch.equal(m.weight.cpu(), torch.ones(4))


# assertRtolEqual's rule, read separately: every element within prec absolutely or relatively
# (to the larger magnitude), prec16 for float16, integers and booleans equal, NaNs matched.
def _rtol_ok(a, b, prec):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    for u, v in zip(a.ravel(), b.ravel()):
        if np.isnan(u) or np.isnan(v):
            if not (np.isnan(u) and np.isnan(v)):
                return False
            continue
        d = abs(u - v)
        if d > prec and d / max(abs(u), abs(v)) > prec:
            return False
    return True


class _Case(TestCase):
    def runTest(self):
        pass


@pytest.mark.parametrize(
    "a,b,dtype",
    [
        ([1.0, 2.0, 1e4], [1.0, 2.0, 1e4 * (1 + 9e-5)], torch.float32),
        ([1.0, 2.0, 1e4], [1.0, 2.0, 1e4 * (1 + 2e-4)], torch.float32),
        ([1e-6, 0.0], [9e-5, 5e-5], torch.float32),
        ([1e-6, 0.0], [2e-4, 0.0], torch.float32),
        ([1.0, 500.0], [1.0, 500.25], torch.float16),
        ([1.0, 500.0], [1.0, 501.0], torch.float16),
        ([float("nan"), 1.0], [float("nan"), 1.0], torch.float32),
        ([float("nan"), 1.0], [1.0, 1.0], torch.float32),
    ],
)
def test_assert_rtol_equal_against_its_rule(a, b, dtype):
    x, y = torch.tensor(a, dtype=dtype), torch.tensor(b, dtype=dtype)
    prec = 1e-3 if dtype == torch.float16 else 1e-4
    expected = _rtol_ok(x.double().numpy(), y.double().numpy(), prec)
    if expected:
        _Case().assertRtolEqual(x.npu(), y)
    else:
        with pytest.raises(AssertionError):
            _Case().assertRtolEqual(x.npu(), y)


def test_assert_rtol_equal_checks_dtype_shape_and_integers():
    case = _Case()
    with pytest.raises(AssertionError, match="dtypes differ"):
        case.assertRtolEqual(torch.ones(2), torch.ones(2, dtype=torch.float16))
    with pytest.raises(AssertionError, match="shapes differ"):
        case.assertRtolEqual(torch.ones(2), torch.ones(3))
    with pytest.raises(AssertionError, match="1 of 3 elements"):
        case.assertRtolEqual(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]))
    case.assertRtolEqual(torch.tensor([True, False]).npu(), torch.tensor([True, False]))
