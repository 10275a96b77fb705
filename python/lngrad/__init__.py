"""lngrad: LayerNorm backward on the CPU, and Ascend C's LayerNormGrad on a simulated device.

Native maths (the C++ library, lngrad::LayerNorm*; formulas and error bounds in docs/math.md):

    dx, dgamma, dbeta = lngrad.layer_norm_backward(dy, x, mean, rstd, gamma=None, *, num_threads=None,
                                                   half_eval="fast")
    dx, dgamma, dbeta = lngrad.layer_norm_backward_variance(dy, x, mean, variance, gamma=None, eps=1e-5)
    pd_x, res_for_gamma = lngrad.layer_norm_grad(dy, x, variance, mean, gamma, eps)
    dgamma, dbeta = lngrad.layer_norm_grad_beta(dy, res_for_gamma)
    y, mean, variance = lngrad.layer_norm(x, gamma=None, beta=None, eps=1e-5, float32_stats=False)
    variance = lngrad.rstd_to_variance(rstd, eps); rstd = lngrad.variance_to_rstd(variance, eps)

Arrays: anything with the buffer protocol or DLPack on the CPU (NumPy arrays, torch CPU
tensors), float32 or float16, or bfloat16 as torch tensors (one dtype per call;
layer_norm_backward also takes float32 statistics with 16-bit data, as PyTorch keeps them;
bfloat16 has one evaluation, float rounded once, docs/math.md §6.6b), C-contiguous, rows over
the last axis:
x has shape (..., H), the per-row vectors (mean, rstd, variance) one element per row in any
shape, gamma and beta shape (H,). Inputs are read in place (never copied, never modified);
results are new arrays of the caller's kind (a torch tensor in, torch tensors out). The GIL is
released while the library computes. Results are bitwise identical for every num_threads
(None or 0: one thread per hardware thread). Bad arguments raise TypeError (kind, dtype) or
ValueError (shape, layout, values), with the library's message naming the argument.

float16 data: layer_norm_backward, layer_norm_backward_variance and layer_norm_grad take
half_eval="fast" (the default: the float evaluation, rounded once to half; its error bound is in
docs/math.md §6.4) or half_eval="correctly-rounded" (every output within one half ulp of the
exact value rounded to half, at least 99.9 % equal to it; about half the speed).

lngrad.layer_norm_backward follows PyTorch's convention (mean and rstd = 1/sqrt(var + eps), as
torch.native_layer_norm saves them); the other functions follow Ascend C's (mean, variance and
eps). gamma=None means ones (and beta=None zeros).

Submodules: lngrad.torch (torch.nn.LayerNorm drop-in, autograd) and lngrad.ascendc (the
Ascend C operators on the simulated device, bit-faithful to the NPU).
"""

from ._lngrad import (
    default_thread_count,
    layer_norm,
    layer_norm_backward,
    layer_norm_backward_variance,
    layer_norm_grad,
    layer_norm_grad_beta,
    rstd_to_variance,
    variance_to_rstd,
)

__version__ = "0.1.0"

__all__ = [
    "default_thread_count",
    "layer_norm",
    "layer_norm_backward",
    "layer_norm_backward_variance",
    "layer_norm_grad",
    "layer_norm_grad_beta",
    "rstd_to_variance",
    "variance_to_rstd",
]
