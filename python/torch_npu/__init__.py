"""torch_npu for lngrad's simulated Ascend device (issue 31).

What the kit's PyTorch samples and an ordinary custom operator use of Ascend's torch_npu, on the
CPU: torch's PrivateUse1 backend (renamed ``npu`` where torch can rename it, 2.1 and later),
whose tensors live in device memory of lngrad's ACL runtime (``aclrtMalloc``), so that an Ascend
C kernel launched with ``<<<>>>`` on ``c10_npu::getCurrentNPUStream()`` accepts them;
``Tensor.npu()``, ``Module.npu()``, ``.cpu()``, ``torch.npu.synchronize()`` and the device
functions of ``torch.npu``; ``torch_npu.testing.testcase``. docs/python.md lists what it covers
and what it does not.
"""

import ctypes
import os
import sys

import torch

from . import _build_info

__version__ = "0.1.0+lngrad"

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIB = os.path.join(_HERE, "lib", "libtorch_npu.so")

if torch.__version__ != _build_info.TORCH_VERSION:
    raise ImportError(
        f"torch_npu (lngrad): lib/libtorch_npu.so was built for torch {_build_info.TORCH_VERSION} "
        f"but this is torch {torch.__version__}; rebuild lngrad against this torch"
    )
# RTLD_GLOBAL: operator libraries loaded later resolve lngrad's runtime to this library's copy,
# so they share its devices, streams and device memory (docs/python.md).
_lib = ctypes.CDLL(_LIB, mode=ctypes.RTLD_GLOBAL)

_CAN_RENAME = hasattr(torch.utils, "rename_privateuse1_backend") and hasattr(
    torch.utils, "generate_methods_for_privateuse1_backend"
)
# The device type's name in torch.device strings: npu where torch renames PrivateUse1.
DEVICE_TYPE = "npu" if _CAN_RENAME else "privateuseone"

from . import npu  # noqa: E402  (needs the library's operators)


def _npu_device(device):
    if device is None:
        return torch.device(DEVICE_TYPE, npu.current_device())
    return torch.device(DEVICE_TYPE, npu._index(device))


def _tensor_npu(self, device=None, non_blocking=False, **kwargs):
    return self.to(device=_npu_device(device), non_blocking=non_blocking, **kwargs)


def _module_npu(self, device=None):
    target = _npu_device(device)
    return self._apply(lambda t: t.to(target))


def _register():
    if _CAN_RENAME:
        if torch._C._get_privateuse1_backend_name() != "npu":
            torch.utils.rename_privateuse1_backend("npu")
        torch._register_device_module("npu", npu)
        torch.utils.generate_methods_for_privateuse1_backend(
            for_tensor=True, for_module=True, for_storage=True
        )
        return
    # torch 1.13: PrivateUse1 keeps its name; the methods and torch.npu are added here.
    torch.Tensor.npu = _tensor_npu
    torch.Tensor.is_npu = property(lambda self: self.device.type == DEVICE_TYPE)
    torch.nn.Module.npu = _module_npu
    torch.npu = npu
    sys.modules["torch.npu"] = npu


if getattr(torch, "npu", None) is not npu:
    _register()
