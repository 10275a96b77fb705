#!/usr/bin/env python3
"""PyTorch's LayerNorm backward (aten::native_layer_norm_backward: dx, dgamma, dbeta), float32
or bfloat16, on the shapes of issue 6, hot cache, outputs preallocated through the .out overload
when this PyTorch has it. Prints one JSON line per shape: name, median seconds per call,
repetitions.

  bench_torch.py time THREADS [bf16]       time every shape (median of REPS samples)
  bench_torch.py run DIR ROWS H [bf16]     read the inputs bench_check wrote, write dx/dgamma/dbeta

bf16: every tensor in bfloat16, mean and rstd included (what PyTorch's own bfloat16 layer norm
keeps and hands its backward); the names start "torch-bf16/" instead of "torch/".

LNGRAD_BENCH_SHAPES="ROWSxH,..." restricts `time` to those shapes (bench/compare --quick);
LNGRAD_BENCH_REPS the samples per shape (default 5).

Allocation: the timed tensors (inputs and the .out outputs) follow the policy of bench_common.h,
the same as every other contender and ceiling: 64-byte aligned, and a buffer of 2 MiB or more
2 MiB aligned and madvise(MADV_HUGEPAGE)d before its first touch (anonymous mmap, then
torch.from_numpy), so they get transparent huge pages where the kernel's THP mode is "madvise"
or "always", whatever this PyTorch's allocator does. What PyTorch allocates inside the call is
its allocator's (bench/compare sets THP_MEM_ALLOC_ENABLE=1, which PyTorch 2.x reads and 1.13
ignores). Tuning (ATEN_CPU_CAPABILITY, ...) is the caller's business (bench/compare)."""

import json
import mmap
import os
import statistics
import sys
import time

import numpy as np
import torch

SHAPES = [(64, 16), (4096, 768), (8192, 1024), (16384, 4096), (2048, 12288)]
EPS = 1e-5
REPS = int(os.environ.get("LNGRAD_BENCH_REPS", "5"))
HUGE = 2 << 20  # bench_common.h's kHugePageBytes
_KEEP = []  # the mappings behind the tensors of buffer(): they must outlive the tensors


def selected_shapes():
    """SHAPES, or those of them LNGRAD_BENCH_SHAPES lists; exits 2 with a message otherwise."""
    env = os.environ.get("LNGRAD_BENCH_SHAPES", "")
    if not env:
        return SHAPES
    out = []
    for item in env.split(","):
        try:
            rows, h = (int(v) for v in item.split("x"))
        except ValueError:
            sys.exit(f'LNGRAD_BENCH_SHAPES: "{item}" is not ROWSxH (in "{env}")')
        if (rows, h) not in SHAPES:
            sys.exit(f"LNGRAD_BENCH_SHAPES: {rows}x{h} is not one of this program's shapes")
        out.append((rows, h))
    return out


def buffer(*shape, dtype=torch.float32):
    """A zero-filled float32 or bfloat16 tensor under bench_common.h's allocation policy (see the
    module's docstring): an anonymous mapping, 2 MiB aligned and MADV_HUGEPAGE for 2 MiB or more
    (64-byte aligned below; a mapping is page aligned), touched here, before any timing."""
    count = 1
    for d in shape:
        count *= d
    size = 2 if dtype == torch.bfloat16 else 4
    nbytes = max(size * count, size)
    big = nbytes >= HUGE
    length = (nbytes + HUGE - 1) // HUGE * HUGE + HUGE if big else nbytes
    m = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    whole = np.frombuffer(m, dtype=np.uint8)
    offset = (-whole.ctypes.data) % HUGE if big else 0
    if big and hasattr(mmap, "MADV_HUGEPAGE"):
        m.madvise(mmap.MADV_HUGEPAGE, offset, length - offset)
    # bfloat16: NumPy has none; int16 memory viewed as torch.bfloat16 (zero bits are 0.0).
    arr = whole[offset : offset + size * count].view(np.float32 if size == 4 else np.int16)
    arr = arr.reshape(shape)
    arr.fill(0)
    _KEEP.append(m)
    t = torch.from_numpy(arr)
    return t if size == 4 else t.view(torch.bfloat16)


def filled(src, dtype=torch.float32):
    """src converted to dtype, in a buffer() of its shape."""
    out = buffer(*src.shape, dtype=dtype)
    out.copy_(src)
    return out


def capability():
    """The ATen CPU capability in use (torch.__config__ reports it in PyTorch 1.13)."""
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage" in line:
            return line.split(":", 1)[1].strip()
    return "unknown"


def make_call(dy, x, mean, rstd, gamma):
    h = x.shape[1]
    beta = torch.zeros_like(gamma)
    mask = [True, True, True]
    outs = tuple(buffer(*t.shape, dtype=x.dtype) for t in (x, gamma, gamma))
    op = torch.ops.aten.native_layer_norm_backward
    try:
        op.out(dy, x, [h], mean, rstd, gamma, beta, mask, out0=outs[0], out1=outs[1], out2=outs[2])

        def call():
            return op.out(
                dy, x, [h], mean, rstd, gamma, beta, mask, out0=outs[0], out1=outs[1], out2=outs[2]
            )

        return call, True
    except (RuntimeError, AttributeError, TypeError):

        def call():
            return op(dy, x, [h], mean, rstd, gamma, beta, mask)

        return call, False


def time_shape(rows, h, dtype):
    g = torch.Generator().manual_seed(1)
    dy = filled(torch.rand(rows, h, generator=g) * 2 - 1, dtype)
    x = filled(torch.rand(rows, h, generator=g) * 4 - 1.5, dtype)
    gamma = filled(torch.rand(h, generator=g) + 0.5, dtype)
    x32 = x.float()
    mean = filled(x32.mean(dim=1, keepdim=True), dtype)
    rstd = filled(1.0 / torch.sqrt(x32.var(dim=1, unbiased=False, keepdim=True) + EPS), dtype)
    call, prealloc = make_call(dy, x, mean, rstd, gamma)
    call()
    # Calls per sample: enough for ~20 ms, so timer overhead does not count.
    t0 = time.perf_counter()
    call()
    one = max(time.perf_counter() - t0, 1e-7)
    per_sample = max(1, int(0.02 / one))
    samples = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for _ in range(per_sample):
            call()
        samples.append((time.perf_counter() - t0) / per_sample)
    return statistics.median(samples), prealloc


def dtype_arg(args):
    """The optional last argument: "bf16" or nothing (float32)."""
    if args and args[-1] == "bf16":
        return args[:-1], torch.bfloat16
    return args, torch.float32


def main():
    args, dtype = dtype_arg(sys.argv[1:])
    prefix = "torch-bf16" if dtype == torch.bfloat16 else "torch"
    if len(args) == 2 and args[0] == "time":
        threads = int(args[1])
        torch.set_num_threads(threads)
        for rows, h in selected_shapes():
            t, prealloc = time_shape(rows, h, dtype)
            print(
                json.dumps(
                    {
                        "name": f"{prefix}/rows:{rows}/h:{h}/threads:{threads}",
                        "seconds": t,
                        "preallocated": prealloc,
                        "capability": capability(),
                        "version": torch.__version__,
                    }
                ),
                flush=True,
            )
        return 0
    if len(args) == 4 and args[0] == "run":
        d, rows, h = args[1], int(args[2]), int(args[3])

        def load(name, shape):
            return torch.from_numpy(
                np.fromfile(os.path.join(d, name + ".f32"), dtype=np.float32).reshape(shape)
            ).to(dtype)

        dy, x = load("dy", (rows, h)), load("x", (rows, h))
        gamma = load("gamma", (h,))
        mean, rstd = load("mean", (rows, 1)), load("rstd", (rows, 1))
        call, _ = make_call(dy, x, mean, rstd, gamma)
        dx, dgamma, dbeta = call()
        for name, t in (("dx", dx), ("dgamma", dgamma), ("dbeta", dbeta)):
            t.contiguous().float().numpy().tofile(os.path.join(d, name + ".f32"))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
