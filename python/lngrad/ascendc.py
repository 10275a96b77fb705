"""The Ascend C operators on lngrad's simulated AI cores, from Python.

The same operators as ``lngrad run --impl ascendc`` (src/ops): AscendC::LayerNormGrad and
AscendC::LayerNormGradBeta as kernels on the simulated device, with the host tiling, rows split
over ``blocks`` AI cores and tiles sized from the product's Unified Buffer. The bits are the
device's (spec docs/spec/ascendc-layernormgrad.md) and equal to the CLI's for the same inputs
and options, so that a vendor-style gen_data.py or verify script can call the device model
directly::

    pd_x, res_for_gamma = lngrad.ascendc.layer_norm_grad(dy, x, variance, mean, gamma, eps,
                                                         soc="Ascend910B1", reuse_source=False,
                                                         tmp="min", blocks=None)
    pd_gamma, pd_beta = lngrad.ascendc.layer_norm_grad_beta(dy, res_for_gamma, soc=..., ...)
    info = lngrad.ascendc.tiling((B, S, H), "float", soc="Ascend910B1", stack_buffer="min")
    products = lngrad.ascendc.socs()

Arrays as in ``lngrad`` (float32 or float16, C-contiguous, rows over the last axis); x of shape
(..., S, H) is the API's [B, S, H] with B the product of the leading extents. ``tmp``: "min",
"max" or a byte count of scratch per tile; ``blocks``: AI cores (None: 1, as the CLI);
``reuse_source`` is isReuseSource (float only; ignored for half, as on the device). ``eps`` is
checked as ``lngrad run --eps`` checks it: finite, >= 0, at most the largest float, and at
most 65504 for float16 data (a ValueError otherwise). Checked mode
(LNGRAD_CHECKED, on unless set to 0) turns what the device gets silently wrong into a
ValueError carrying the kernel check's message; the pipeline sanitizer follows LNGRAD_SANITIZE.
``tiling`` returns what ``lngrad tiling --json`` reports of the two APIs' host tiling.
"""

from ._lngrad import ascendc as _device

layer_norm_grad = _device.layer_norm_grad
layer_norm_grad_beta = _device.layer_norm_grad_beta
socs = _device.socs
tiling = _device.tiling

__all__ = ["layer_norm_grad", "layer_norm_grad_beta", "socs", "tiling"]
