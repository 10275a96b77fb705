"""PyTorch integration: a torch.nn.LayerNorm drop-in whose forward and backward run lngrad.

    import lngrad.torch
    norm = lngrad.torch.LayerNorm(768)              # same arguments and parameters as torch's
    y = lngrad.torch.layer_norm(x, (768,), weight, bias, eps=1e-5)   # functional form

Both compute with lngrad's native library (the LayerNorm forward, the fused backward) through
the compiled operator torch.ops.lngrad.layer_norm where it was built for this torch (OPERATORS;
docs/python.md), else through a torch.autograd.Function over the extension module, for CPU
tensors of float32, float16 or bfloat16 (torch's own CPU layer norm has no float16 before 2.x).
The statistics are kept in float32 for 16-bit data too, as torch keeps them. Half gradients use
``half_eval`` (default "fast": the float evaluation rounded once, docs/math.md §6.4;
"correctly-rounded": every element within one half ulp of the exact value); bfloat16 has the
fast evaluation only (docs/math.md §6.6b) and ignores ``half_eval``. Other
tensors (another device, another dtype, or weight/bias of a different dtype than the input) go
to torch.nn.functional.layer_norm, so that the module stays a drop-in everywhere. Double
backward is not supported: differentiating the gradient raises a RuntimeError.

Gradients are bitwise identical for every thread count (``num_threads``, default: one per
hardware thread), which makes data-parallel training (torch.distributed, DDP) reproducible; the
module's parameters and state_dict are exactly those of torch.nn.LayerNorm.

The operators' outputs of 1 MiB or more come from a cache of the blocks earlier outputs freed
(up to LNGRAD_TORCH_CACHE_MB MiB kept, default 1024, 0 for none; cache_info(), empty_cache()),
so that a training loop does not fault its outputs' pages in again at every step.
"""

import inspect
import math
import numbers
import os

import torch
from torch.autograd.function import once_differentiable

from . import _lngrad

__all__ = ["LayerNorm", "layer_norm", "uses_lngrad", "OPERATORS", "cache_info", "empty_cache"]

_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def _load_operators():
    """Loads torch.ops.lngrad (python/torch_ops) when it was built for this torch."""
    if os.environ.get("LNGRAD_TORCH_OPS") == "0":
        return False
    try:
        from . import _torch_ops_info
    except ImportError:  # built without torch's C++ package
        return False
    path = os.path.join(os.path.dirname(__file__), "_lngrad_torch.so")
    if _torch_ops_info.TORCH_VERSION != torch.__version__ or not os.path.exists(path):
        return False  # another torch than the one it was built for: the Python path
    torch.ops.load_library(path)
    return True


# True when lngrad.torch runs through the compiled operators torch.ops.lngrad.layer_norm,
# layer_norm_forward and layer_norm_backward (no Python between torch and lngrad, and
# torch.compile sees them as operators); False when it runs the Python path below (a
# torch.autograd.Function over the extension module): torch without its C++ headers at build
# time, another torch version than the build's, or LNGRAD_TORCH_OPS=0. Both give the same bits.
OPERATORS = _load_operators()
# The operator itself (an OpOverload: what torch.compile traces), bound once.
_LAYER_NORM_OP = torch.ops.lngrad.layer_norm.default if OPERATORS else None


def cache_info():
    """The operators' output cache: a dict of bytes kept for reuse, the limit
    (LNGRAD_TORCH_CACHE_MB, default 1024 MiB), and outputs of 1 MiB or more reused and newly
    allocated. All zero on the Python path, whose outputs come from NumPy."""
    kept, limit, reused, new = torch.ops.lngrad.cache_info() if OPERATORS else (0, 0, 0, 0)
    return {"kept_bytes": kept, "limit_bytes": limit, "reused": reused, "new": new}


def empty_cache():
    """Gives the blocks the operators' output cache keeps back to the system."""
    if OPERATORS:
        torch.ops.lngrad.empty_cache()


def _normalized(normalized_shape):
    if isinstance(normalized_shape, numbers.Integral):
        return (int(normalized_shape),)
    return tuple(int(d) for d in normalized_shape)


def uses_lngrad(input, weight=None, bias=None):
    """True when layer_norm(input, ..., weight, bias) runs lngrad rather than torch's own."""
    if input.device.type != "cpu" or input.dtype not in _DTYPES:
        return False
    for p in (weight, bias):
        if p is not None and (p.device.type != "cpu" or p.dtype != input.dtype):
            return False
    return True


class _LayerNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias, h, eps, num_threads, half_eval):
        x = input.detach().contiguous().view(-1, h)
        w = None if weight is None else weight.detach().contiguous().view(h)
        b = None if bias is None else bias.detach().contiguous().view(h)
        ctx.h, ctx.eps, ctx.num_threads, ctx.half_eval = h, eps, num_threads, half_eval
        ctx.shapes = (
            input.shape,
            None if weight is None else weight.shape,
            None if bias is None else bias.shape,
        )
        if x.shape[0] == 0:
            # An empty batch, as torch.nn.LayerNorm takes it: an empty output, and in the
            # backward an empty dx with zero dgamma and dbeta (sums over no rows).
            ctx.save_for_backward(x, w, None, None)
            return torch.empty(input.shape, dtype=input.dtype)
        # float32 statistics for half data too (as torch keeps them): the backward then
        # differentiates at statistics as accurate as torch's.
        y, mean, variance = _lngrad.layer_norm(
            x, w, b, eps, num_threads=num_threads, float32_stats=True
        )
        ctx.save_for_backward(x, w, mean, variance)
        return y.view(input.shape)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, w, mean, variance = ctx.saved_tensors
        if x.shape[0] == 0:
            dx = torch.empty_like(x)
            dgamma = torch.zeros(ctx.h, dtype=x.dtype)
            dbeta = torch.zeros(ctx.h, dtype=x.dtype)
        else:
            dy = grad_output.detach().contiguous().view(-1, ctx.h)
            if dy.dtype != x.dtype:
                dy = dy.to(x.dtype)
            dx, dgamma, dbeta = _lngrad.layer_norm_backward_variance(
                dy,
                x,
                mean,
                variance,
                w,
                ctx.eps,
                num_threads=ctx.num_threads,
                half_eval=ctx.half_eval,
            )
        input_shape, weight_shape, bias_shape = ctx.shapes
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        return (
            dx.view(input_shape) if need_x else None,
            dgamma.view(weight_shape) if need_w and weight_shape is not None else None,
            dbeta.view(bias_shape) if need_b and bias_shape is not None else None,
            None,
            None,
            None,
            None,
        )


def layer_norm(
    input, normalized_shape, weight=None, bias=None, eps=1e-5, *, num_threads=None, half_eval="fast"
):
    """torch.nn.functional.layer_norm with lngrad's forward and backward (see the module doc)."""
    shape = _normalized(normalized_shape)
    if OPERATORS:
        return _LAYER_NORM_OP(input, shape, weight, bias, float(eps), num_threads, half_eval)
    if tuple(input.shape[input.dim() - len(shape) :]) != shape or input.dim() < len(shape):
        raise RuntimeError(
            f"lngrad.torch.layer_norm: normalized_shape {list(shape)} does not match the trailing "
            f"dimensions of the input, of shape {list(input.shape)}"
        )
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != shape:
            raise RuntimeError(
                f"lngrad.torch.layer_norm: {name} has shape {list(p.shape)}; expected "
                f"normalized_shape {list(shape)}"
            )
    if not uses_lngrad(input, weight, bias):
        return torch.nn.functional.layer_norm(input, shape, weight, bias, eps)
    h = math.prod(shape)
    if h == 0:
        return torch.nn.functional.layer_norm(input, shape, weight, bias, eps)
    # Checked here as well as in the backward: an error there would only show at backward time.
    if half_eval not in ("fast", "correctly-rounded"):
        raise ValueError(
            f"lngrad.torch.layer_norm: half_eval must be 'fast' or "
            f"'correctly-rounded', got {half_eval!r}"
        )
    return _LayerNormFunction.apply(input, weight, bias, h, float(eps), num_threads, half_eval)


_TORCH_HAS_BIAS_ARG = "bias" in inspect.signature(torch.nn.LayerNorm.__init__).parameters


class LayerNorm(torch.nn.LayerNorm):
    """torch.nn.LayerNorm whose forward and backward run lngrad (see the module doc).

    Same constructor (normalized_shape, eps, elementwise_affine, bias, device, dtype), the same
    parameters (weight, bias) and state_dict; ``num_threads`` is lngrad's thread count,
    ``half_eval`` its evaluation of float16 gradients ("fast" or "correctly-rounded").
    """

    def __init__(
        self,
        normalized_shape,
        eps=1e-5,
        elementwise_affine=True,
        bias=True,
        device=None,
        dtype=None,
        *,
        num_threads=None,
        half_eval="fast",
    ):
        if _TORCH_HAS_BIAS_ARG:
            super().__init__(
                normalized_shape, eps, elementwise_affine, bias=bias, device=device, dtype=dtype
            )
        else:  # torch < 2.1: no bias argument; the same result by hand
            super().__init__(normalized_shape, eps, elementwise_affine, device=device, dtype=dtype)
            if elementwise_affine and not bias:
                self.bias = None
        self.num_threads = num_threads
        self.half_eval = half_eval

    def forward(self, input):
        if OPERATORS:
            return _LAYER_NORM_OP(
                input,
                self.normalized_shape,
                self.weight,
                self.bias,
                self.eps,
                self.num_threads,
                self.half_eval,
            )
        return layer_norm(
            input,
            self.normalized_shape,
            self.weight,
            self.bias,
            self.eps,
            num_threads=self.num_threads,
            half_eval=self.half_eval,
        )
