"""torch_npu.testing.testcase for lngrad's simulated device: TestCase (torch's own, with
assertRtolEqual) and run_tests. Needs expecttest, as torch's test utilities do."""

import numpy as np
import torch
from torch.testing._internal.common_utils import TestCase as _TorchTestCase
from torch.testing._internal.common_utils import run_tests

__all__ = ["TestCase", "run_tests"]

# Below these, values count as zero in the relative error (half's smallest subnormal, float's).
_TINY = {np.dtype(np.float16): 6e-8}
_EXACT_KINDS = "biu"  # bool, signed and unsigned integers: compared for equality


def _as_numpy(t):
    if torch.is_tensor(t):
        t = t.detach().cpu()
        if t.dtype == torch.bfloat16:
            t = t.float()
        return t.numpy()
    return np.asarray(t)


class TestCase(_TorchTestCase):
    def assertRtolEqual(
        self, x, y, prec=1.0e-4, prec16=1.0e-3, auto_trans_dtype=False, message=None
    ):
        """x and y have the same shape and dtype, and every element agrees to `prec` (`prec16`
        for float16) in absolute or in relative error; NaNs must be in the same places.
        Stricter than torch_npu's, which lets a fraction `prec` of the elements differ more."""
        if auto_trans_dtype and torch.is_tensor(x) and torch.is_tensor(y):
            x = x.to(y.dtype)
        a, b = _as_numpy(x), _as_numpy(y)
        prefix = f"{message}: " if message else ""
        if a.shape != b.shape:
            self.fail(f"{prefix}shapes differ: {a.shape} and {b.shape}")
        if a.dtype != b.dtype:
            self.fail(f"{prefix}dtypes differ: {a.dtype} and {b.dtype}")
        if a.dtype.kind in _EXACT_KINDS:
            bad = a != b
        else:
            bad = self._outside_tolerance(a, b, prec16 if a.dtype == np.float16 else prec, prefix)
        if bad.any():
            i = np.unravel_index(np.argmax(bad), bad.shape)
            self.fail(
                f"{prefix}{int(bad.sum())} of {a.size} elements differ beyond the tolerance; first at {i}: {a[i]} vs {b[i]}"
            )

    def _outside_tolerance(self, a, b, prec, prefix):
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        if (nan_a != nan_b).any():
            self.fail(f"{prefix}NaNs in different places")
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        diff = np.where(nan_a, 0.0, np.abs(a64 - b64))
        scale = np.maximum(np.abs(a64), np.abs(b64)) + _TINY.get(a.dtype, 1e-9)
        return (diff > prec) & (diff / np.where(nan_a, 1.0, scale) > prec)
