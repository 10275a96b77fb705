"""The operator of add_op.asc on lngrad's torch_npu, run by CTest python.torch_npu_op after the
directory is built as the kit's PyTorch samples are. The oracle is float64 arithmetic in NumPy:
a float32 sum is the float64 sum rounded once, so the kernel's results must equal it bitwise."""

import os

import numpy as np
import torch
import torch_npu  # noqa: F401  (the npu device)
from torch_npu.testing.testcase import TestCase, run_tests

torch.ops.load_library(os.environ["LNGRAD_NPU_OPS_LIB"])


def _oracle(x, y):
    return torch.from_numpy(
        (x.numpy().astype(np.float64) + y.numpy().astype(np.float64)).astype(np.float32)
    )


class TestAddOp(TestCase):
    def test_matches_the_float64_oracle_bitwise(self):
        gen = torch.Generator().manual_seed(31)
        x = torch.randn(8, 2048, generator=gen)
        y = torch.randn(8, 2048, generator=gen) * 1e3
        z = torch.ops.lngrad_npu.add(x.npu(), y.npu())
        self.assertEqual(z.device.type, torch_npu.DEVICE_TYPE)
        self.assertTrue(torch.equal(z.cpu(), _oracle(x, y)))

    def test_a_second_device(self):
        x = torch.arange(4096, dtype=torch.float32)
        torch.npu.set_device(1)
        try:
            z = torch.ops.lngrad_npu.add(x.npu(), x.npu())
            self.assertEqual(z.device.index, 1)
            torch.npu.synchronize()
        finally:
            torch.npu.set_device(0)
        self.assertTrue(torch.equal(z.cpu(), _oracle(x, x)))

    def test_a_kernel_reading_past_the_tensors_fails_its_stream(self):
        # The inputs are device memory of lngrad's runtime: a kernel that reads 1024 elements past
        # them fails (global memory bounds), and the copy to the host raises the report.
        x = torch.ones(4096).npu()
        z = torch.ops.lngrad_npu.add_overrun(x, x, 1024)
        with self.assertRaisesRegex(RuntimeError, "aclrtSynchronizeStream.*add_blocks"):
            z.cpu()
        torch.npu.synchronize()  # reported once: the stream works again
        self.assertTrue(torch.equal(torch.ops.lngrad_npu.add(x, x).cpu(), torch.full((4096,), 2.0)))


if __name__ == "__main__":
    run_tests()
