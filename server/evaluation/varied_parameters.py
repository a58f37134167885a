"""Parameters the reference initialises to one value, varied on both models before the trials.

A norm layer starts at weight 1 and bias 0, and Model and ModelNew are built from the same seed,
so a kernel that never applied them matched every trial (red-team pass 91: LayerNorm and
BatchNorm kernels without their affine step scored, wrong on any trained values). Once both
models are built, every floating parameter of the reference whose elements are all one value is
given the same random values in both (about that value: 1 -> [0.5, 1.5), 0 -> [-0.5, 0.5)),
and the reference's pristine copy with them. ModelNew's counterpart is its parameter of the same
name and shape, else one of the same shape, dtype and value (in order): a kernel must keep such
parameters, as it must keep the random ones. Parameters drawn at random are left as built.
"""

from __future__ import annotations

import torch

from .stages import COMPILE, StageFailure

SPREAD = 0.5  # a constant c becomes c + U(-SPREAD, SPREAD) * max(|c|, 1)


def constant_parameters(model: torch.nn.Module) -> list[tuple[str, torch.Tensor, float]]:
    """(name, parameter, its one value) for each floating parameter whose elements are all equal."""
    found = []
    for name, p in torch.nn.Module.named_parameters(model):
        if p.is_floating_point() and p.numel() and not p.is_complex():
            low, high = torch.aminmax(p.detach())  # no temporary of the parameter's size
            if bool(low == high):
                found.append((name, p, float(low)))
    return found


def _plain_parameters(model: torch.nn.Module) -> list[tuple[str, torch.Tensor]]:
    """ModelNew's parameters read with nn.Module's own method (none of the submission's code
    runs), plain Parameters only."""
    return [(n, p) for n, p in torch.nn.Module.named_parameters(model)
            if type(p) is torch.nn.Parameter]


def _counterparts(constants, candidate) -> dict[str, torch.Tensor]:
    """The reference's constant parameter name -> ModelNew's parameter it maps to."""
    by_name = dict(candidate)
    taken: set[int] = set()
    matched: dict[str, torch.Tensor] = {}
    for name, p, _ in constants:
        q = by_name.get(name)
        if q is not None and q.shape == p.shape and q.dtype == p.dtype and id(q) not in taken:
            matched[name] = q
            taken.add(id(q))
    for name, p, value in constants:
        if name in matched:
            continue
        for _, q in candidate:
            if (id(q) not in taken and q.shape == p.shape and q.dtype == p.dtype
                    and q.device == p.device and _all_equal(q, value)):
                matched[name] = q
                taken.add(id(q))
                break
    return matched


def _all_equal(t: torch.Tensor, value: float) -> bool:
    low, high = torch.aminmax(t.detach())
    return bool(low == value) and bool(high == value)


def vary_constant_parameters(ref_model: torch.nn.Module, new_model: torch.nn.Module,
                             ref_state: dict, seed: int) -> list[str]:
    """Gives the reference's constant parameters and their counterparts in ModelNew the same
    random values (the reference's pristine copy too); returns the reference's names varied.
    A constant parameter without a counterpart is the submission's error."""
    constants = constant_parameters(ref_model)
    if not constants:
        return []
    matched = _counterparts(constants, _plain_parameters(new_model))
    missing = [(name, p, value) for name, p, value in constants if name not in matched]
    if missing:
        name, p, value = missing[0]
        raise StageFailure(COMPILE, "compile_error", (
            f"the reference's parameter `{name}` (shape {list(p.shape)}, {p.dtype}, every "
            f"element {value:g} when built) has no counterpart in ModelNew: keep each of the "
            "reference's parameters as an nn.Parameter of ModelNew, with the same name or the "
            "same shape and initial values. The evaluator gives such parameters other values "
            "(the same in both models) before the trials, as training would: a kernel that "
            "leaves out a weight of 1 or a bias of 0 is wrong for any trained model"))
    generator = torch.Generator(device="cpu").manual_seed(seed)
    with torch.no_grad():
        for name, p, value in constants:
            noise = torch.rand(p.shape, generator=generator, dtype=torch.float64)
            values = (value + (2 * noise - 1) * SPREAD * max(abs(value), 1.0)).to(p.dtype)
            p.copy_(values)
            matched[name].copy_(values)
            if name in ref_state:
                ref_state[name].copy_(values)
    return [name for name, _, _ in constants]
