"""On the CPU, the task's random inputs are drawn from Philox (numpy), not torch's MT19937.

torch's CPU generator is MT19937, whose output is linear over GF(2): `torch.rand`'s 24 bits of
each word obey parity relations between words 396 and 623 apart whatever the seed. Red-team
pass 60 tested 15 such relations in one Triton kernel and so told the task's own draws from
every input the evaluator builds on them (random signs, the unit trials, spikes,
perturbations): a kernel cheap on plain draws and honest on the rest scored on the cpu
evaluator (a GEMM+ReLU skipping 23 % of its columns, 8 of 8; DeepNarrowMLP returning a kept
row, 4 of 4), and pass 57 read a call's seed back from six of its floats. A GPU's draws come
from Philox already. While a task's `get_inputs` runs on the CPU, `PhiloxDraws` answers its
uniform, normal and integer draws (torch.rand, randn, randint, their `_like` forms, uniform_,
normal_) from numpy's Philox keyed by the call's seed: the same seed gives the same inputs
(replays, re-checks), and no linear test or seed search tells them apart from fresh ones.
Other draws (bernoulli, randperm, a generator of the task's own) still come from torch.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch.overrides import TorchFunctionMode


class PhiloxDraws(TorchFunctionMode):
    """Answers the task's draws from Philox keyed by `seed` while active (see the module)."""

    def __init__(self, seed: int):
        super().__init__()
        self.rng = np.random.Generator(np.random.Philox(key=seed % (1 << 128)))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        draw = _DRAWS.get(func)
        if draw is None or kwargs.get("generator") is not None or kwargs.get("out") is not None:
            return func(*args, **kwargs)
        made = draw(self.rng, args, kwargs)
        if made is None:  # a form this does not answer (a device of its own, say)
            return func(*args, **kwargs)
        if kwargs.get("requires_grad"):
            made.requires_grad_(True)
        return made


def _size(args, kwargs) -> tuple:
    if "size" in kwargs:
        return tuple(kwargs["size"])
    if len(args) == 1 and isinstance(args[0], (tuple, list, torch.Size)):
        return tuple(args[0])
    return tuple(args)


def _on_cpu(kwargs) -> bool:
    device = kwargs.get("device")
    return device is None or torch.device(device).type == "cpu"


def _tensor(values: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    """A torch-owned tensor of the values (resizable, as a draw's own storage is)."""
    source = torch.from_numpy(np.asarray(values))  # (a zero-dimensional product is a scalar)
    return torch.empty(source.shape, dtype=dtype).copy_(source)


def _uniform(rng, shape, dtype) -> torch.Tensor | None:
    """U[0, 1) on the grid torch.rand's values lie on: float32 24 bits and float64 53 (numpy's
    own grids), half 11 and bfloat16 8 (integers scaled)."""
    if not dtype.is_floating_point or dtype.is_complex:
        return None
    if dtype == torch.float32:
        return _tensor(rng.random(size=shape, dtype=np.float32), dtype)
    if dtype == torch.float64:
        return _tensor(rng.random(size=shape), dtype)
    bits = round(-math.log2(torch.finfo(dtype).eps)) + 1
    grid = rng.integers(0, 1 << bits, size=shape, dtype=np.int32).astype(np.float32)
    return _tensor(grid * np.float32(2.0 ** -bits), dtype)


def _normal(rng, shape, dtype) -> torch.Tensor | None:
    if not dtype.is_floating_point or dtype.is_complex:
        return None
    wide = dtype == torch.float64
    return _tensor(rng.standard_normal(size=shape, dtype=np.float64 if wide else np.float32), dtype)


def _rand(rng, args, kwargs):
    if not _on_cpu(kwargs):
        return None
    return _uniform(rng, _size(args, kwargs), kwargs.get("dtype") or torch.get_default_dtype())


def _randn(rng, args, kwargs):
    if not _on_cpu(kwargs):
        return None
    return _normal(rng, _size(args, kwargs), kwargs.get("dtype") or torch.get_default_dtype())


def _like(make):
    def draw(rng, args, kwargs):
        like = args[0]
        if not torch.is_tensor(like) or like.device.type != "cpu" or not _on_cpu(kwargs):
            return None
        made = make(rng, tuple(like.shape), kwargs.get("dtype") or like.dtype)
        return None if made is None else _laid_out_like(made, like, kwargs)
    return draw


def _laid_out_like(made: torch.Tensor, like: torch.Tensor, kwargs) -> torch.Tensor:
    """The draw in `like`'s layout (strides) unless the call names a memory format, as torch's
    `_like` draws are."""
    memory_format = kwargs.get("memory_format") or torch.preserve_format
    return torch.empty_like(like, dtype=made.dtype, memory_format=memory_format).copy_(made)


def _integers(rng, low: int, high: int, shape, dtype) -> torch.Tensor | None:
    if dtype.is_complex or dtype == torch.bool or high <= low:
        return None
    return _tensor(rng.integers(low, high, size=shape, dtype=np.int64), dtype)


def _randint(rng, args, kwargs):
    """randint(high, size) or randint(low, high, size), as positional or keyword arguments."""
    if not _on_cpu(kwargs):
        return None
    args = list(args)
    size = kwargs.get("size", args.pop() if args and isinstance(args[-1], (tuple, list, torch.Size)) else None)
    bounds = args + [kwargs[k] for k in ("low", "high") if k in kwargs]
    if size is None or not 1 <= len(bounds) <= 2 or not all(isinstance(b, int) for b in bounds):
        return None
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    return _integers(rng, low, high, tuple(size), kwargs.get("dtype") or torch.int64)


def _randint_like(rng, args, kwargs):
    like, bounds = args[0], [b for b in args[1:]] + [kwargs[k] for k in ("low", "high") if k in kwargs]
    if not torch.is_tensor(like) or like.device.type != "cpu" or not _on_cpu(kwargs):
        return None
    if not 1 <= len(bounds) <= 2 or not all(isinstance(b, int) for b in bounds):
        return None
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    made = _integers(rng, low, high, tuple(like.shape), kwargs.get("dtype") or like.dtype)
    return None if made is None else _laid_out_like(made, like, kwargs)


def _in_place(make, defaults: tuple):
    """Tensor.uniform_(from, to) / Tensor.normal_(mean, std): the draw scaled and written in."""
    def draw(rng, args, kwargs):
        target = args[0]
        if not torch.is_tensor(target) or target.device.type != "cpu":
            return None
        names = ("from", "to") if make is _uniform else ("mean", "std")
        a, b = (list(args[1:]) + [kwargs.get(n, d) for n, d in zip(names, defaults)][len(args) - 1:])[:2]
        base = make(rng, tuple(target.shape), target.dtype)  # (on its grid: `to` stays out)
        if base is None:
            return None
        values = base * (b - a) + a if make is _uniform else base * b + a
        with torch.no_grad():
            return target.copy_(values)
    return draw


_DRAWS = {
    torch.rand: _rand, torch.randn: _randn,
    torch.rand_like: _like(_uniform), torch.randn_like: _like(_normal),
    torch.randint: _randint, torch.randint_like: _randint_like,
    torch.Tensor.uniform_: _in_place(_uniform, (0.0, 1.0)),
    torch.Tensor.normal_: _in_place(_normal, (0.0, 1.0)),
}
