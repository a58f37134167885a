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
    give the same change (positions are made unique, so the scatter is deterministic)."""
    undo = []
    for i, x in enumerate(inputs):
        if not (torch.is_tensor(x) and x.numel() > 1):
            continue
        gen = torch.Generator(device=x.device).manual_seed((key + 7919 * round_ + i) % (1 << 62))
        flat, n = x.view(-1), x.numel()
        where = torch.unique(torch.randint(0, n, (min(PERTURBED, n),), generator=gen, device=x.device))
        source = torch.randint(0, n, (where.numel(),), generator=gen, device=x.device)
        undo.append((flat, where, flat[where]))  # gathered before the scatter, in stream order
        flat[where] = flat[source]
    return undo


def restore(undo: list) -> None:
    for flat, where, values in reversed(undo):
        flat[where] = values
