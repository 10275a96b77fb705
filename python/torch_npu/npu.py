"""torch.npu for lngrad's simulated device: devices 0..7 of lngrad's ACL runtime, all simulating
the current product (LNGRAD_SOC, or the default product of the operator's --npu-arch)."""

import torch

_ops = torch.ops.torch_npu


def is_available():
    """True: the simulated device is always there."""
    return True


def device_count():
    return int(_ops._device_count())


def _index(device):
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        from . import DEVICE_TYPE

        if device.type not in (DEVICE_TYPE, "npu"):
            raise ValueError(f"torch_npu (lngrad): {device} is not an npu device")
        return current_device() if device.index is None else device.index
    raise TypeError(
        f"torch_npu (lngrad): a device is an int, a str or a torch.device, not {device!r}"
    )


def current_device():
    return int(_ops._current_device())


def set_device(device):
    _ops._set_device(_index(device))


def synchronize(device=None):
    """Waits for every stream of the device (the current one by default). A kernel that failed
    since the last synchronisation raises RuntimeError with lngrad's report."""
    _ops._synchronize(current_device() if device is None else _index(device))


def get_soc_name():
    """The simulated product (aclrtGetSocName)."""
    return str(_ops._soc_name())
