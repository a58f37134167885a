"""Cheap per-call changes to inputs too large to generate afresh before every timed call.

A memory-bound task at full size has 6 GiB inputs: generating them takes as long as the kernel
itself. Instead, before every timed call, PERTURBED elements of each input tensor, at positions
drawn from a secret key and the call's round, take the values of as many other positions (the
task's distribution stays), and the previous round's change is undone first. A cache keyed by
pointer then returns stale values at those positions, which the re-checked calls show; finding
the changed positions means reading the whole input, which is what a memory-bound kernel costs.
Used only where the task's profile showed that one round visibly changes the reference's output
(an elementwise task; not a reduction to a few values) and every input can be indexed flat.
"""

from __future__ import annotations

import torch

from .secret_memory import secret_allocations
from .seeds import derived_seed

PERTURBED = 1 << 16  # elements per tensor and round


def perturbable(inputs: list) -> bool:
    """Every tensor input (of more than one element) contiguous and sharing memory with no other:
    a copy then changes exactly as the original does."""
    tensors = [x for x in inputs if torch.is_tensor(x) and x.numel() > 1]
    storages = [x.untyped_storage().data_ptr() for x in tensors]
    return bool(tensors) and len(set(storages)) == len(storages) and all(
        x.is_contiguous() for x in tensors)


def perturb(inputs: list, key: int, round_: int) -> list:
    """Apply round `round_`'s change in place; returns what undoes it. The same key and round
    give the same change. Positions are unique by construction (one in each of PERTURBED equal
    blocks of the flat tensor, at a random offset within it), so the scatter is deterministic
    and nothing waits for the device (torch.unique would): a few launches a tensor, since this
    runs before every timed call."""
    undo = []
    for i, x in enumerate(inputs):
        if not (torch.is_tensor(x) and x.numel() > 1):
            continue
        n = x.numel()
        count = min(PERTURBED, n)
        gen = _generator(x.device)
        gen.manual_seed(derived_seed(key, (round_ << 16) + i))  # (no round's tells the next's)
        with secret_allocations(x.device):  # the positions, freed, would name the change
            where = one_per_stretch(count, n // count, x.device, gen)
            source = torch.randint(0, n, (count,), generator=gen, device=x.device)
            flat = x.view(-1)
            undo.append((flat, where, flat.index_select(0, where)))  # read before the scatter
            flat.index_copy_(0, where, flat.index_select(0, source))
            del source
    return undo


def one_per_stretch(count: int, stretch: int, device: torch.device,
                    generator: torch.Generator | None = None) -> torch.Tensor:
    """One random position in each of `count` consecutive stretches of `stretch` elements:
    distinct by construction (a scatter there is deterministic), drawn without waiting for the
    device."""
    return torch.arange(0, count * stretch, stretch, device=device).add_(
        torch.randint(0, stretch, (count,), generator=generator, device=device))


def restore(undo: list) -> None:
    for flat, where, values in reversed(undo):
        flat.index_copy_(0, where, values)


_generators: dict = {}  # host-side state only: a kernel writing device memory cannot reach it


def _generator(device: torch.device) -> torch.Generator:
    """One generator per device, reseeded for every use (making one costs more than seeding)."""
    if device not in _generators:
        _generators[device] = torch.Generator(device=device)
    return _generators[device]
