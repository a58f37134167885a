"""Inputs that wake a reference's hidden units: the task's own values, reordered.

Red-team pass 53: a GEMM+ReLU kernel skipped the output columns that random [0, 1) inputs never
make positive (mean + 5 sd < 0), although inputs in [0, 1) that do exist (x_k near 1 where the
column's weight is positive, near 0 elsewhere): wrong on legitimate inputs with 17 % of the GEMM
saved, and no random draw ever comes near those inputs. Here each sample of the inputs is a
genuine draw of the task's generator whose values are reordered to follow the gradient of one
hidden unit of the reference (an output of a Linear or convolution layer that is not the
model's output), a unit chosen secretly for each sample. For a unit computed from the inputs by
one layer the rearrangement inequality makes that the largest value the unit takes over every
order of the draw; behind other layers the reordering is repeated a few times (an ascent).
A kernel cannot tell such a sample from a random one by its values (the same multiset, in the
generator's range); only by computing the unit, which is the work it meant to skip.
"""

from __future__ import annotations

from typing import Callable

import torch

from .inputs import generate

UNIT_LABEL = ("the task's own values reordered within each sample to drive one hidden unit of "
              "the reference (chosen secretly) to its largest")
UNIT_MODULES = (torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d)
# Reorderings at most where a unit lies behind other layers; one is exact where every unit's
# layer reads the inputs themselves (the gradient does not depend on them there). Behind one
# or eight layers (bundled MLP, DeepNarrowMLP) a second step lifted the driven units 1-5 % more
# than the first, a third 0.5-2 % more again: two.
STEPS = 2
_TARGET_SEED = 0x68E31DA4  # the secret units come from the inputs' (secret) seed, mixed


class UnitInputs:
    """The trial's maker (inputs.py's signature: get_inputs, device, seed, into), bound to the
    reference model; `restore` puts its pristine parameters back before an ascent (a kernel may
    have written over them). The order each seed's ascent found is kept (int32, on the device:
    copies to the host cost more than the ascent at 8 million values), so making that seed's
    inputs again (the copy the reference computes on, a timed round's re-check) gives the same
    values without a second ascent, whose GPU gradients need not repeat bit for bit. A kernel
    writing over a kept order gains nothing: the inputs made again then differ from those it
    was given, which the comparison refuses. `found`: whether the last ascent had hidden units
    to drive."""

    label = UNIT_LABEL

    def __init__(self, model: torch.nn.Module, restore: Callable[[], None] = lambda: None):
        self.model, self.restore = model, restore
        self.orders: dict[int, dict[int, torch.Tensor]] = {}
        self.found = False

    def __call__(self, get_inputs, device: torch.device, seed: int, into: list | None = None) -> list:
        inputs = generate(get_inputs, device, seed)
        orders = self.orders.get(seed)
        if orders is None:
            self.restore()
            orders = self.orders[seed] = self._ascend(inputs, seed)
        return [_arranged(x, orders[i]) if i in orders else x for i, x in enumerate(inputs)]

    def _ascend(self, inputs: list, seed: int) -> dict[int, torch.Tensor]:
        """Per reorderable input (index): for each sample, the positions that receive its values
        in ascending order. Empty where the reference has no hidden unit."""
        self.found = False
        movable = [i for i, x in enumerate(inputs) if _reorderable(x)]
        layers = [m for m in self.model.modules() if isinstance(m, UNIT_MODULES)]
        if not movable or not layers:
            return {}
        seen: dict[int, tuple] = {}  # hook index -> (the layer's input, its output, unit dim)
        hooks = [m.register_forward_hook(
            lambda mod, args, out, k=k, d=(-1 if isinstance(m, torch.nn.Linear) else 1):
            seen.__setitem__(k, (args[0] if args else None, out, d)))
            for k, m in enumerate(layers)]
        try:
            with torch.enable_grad():
                return self._reorder(inputs, movable, seen, seed)
        finally:
            for hook in hooks:
                hook.remove()

    def _reorder(self, inputs: list, movable: list, seen: dict, seed: int) -> dict:
        current: dict = {i: None for i in movable}  # None: the draw's own order
        targets, steps = None, STEPS
        for step in range(steps):
            leaves = {i: (inputs[i].detach() if current[i] is None
                          else _arranged(inputs[i], current[i])).requires_grad_(True) for i in movable}
            seen.clear()
            out = self.model(*[leaves.get(i, x) for i, x in enumerate(inputs)])
            if targets is None:
                targets = _targets(seen, out, seed)
                if not targets:
                    return {}
                self.found = True
                own = {id(leaf) for leaf in leaves.values()}
                if all(id(seen[k][0]) in own for k in targets):
                    steps = 1  # every unit's layer reads the inputs: one reordering is exact
            objective = sum(_driven(seen[k][1], unit_dim, rows, units)
                            for k, (unit_dim, rows, units) in targets.items())
            if not torch.is_tensor(objective) or not objective.requires_grad:
                return {}  # the units do not depend on the inputs through autograd
            grads = torch.autograd.grad(objective, [leaves[i] for i in movable], allow_unused=True)
            del leaves, out, objective
            seen.clear()
            changed = False
            for i, grad in zip(movable, grads):
                if grad is None:
                    continue
                g = _flat(grad)
                order = g.argsort(dim=-1, stable=True)
                follow = g.abs().amax(-1) > 0
                if not bool(follow.all()):  # a sample no unit depends on keeps its order
                    kept = (_flat(inputs[i]).argsort(-1) if current[i] is None
                            else current[i].long())
                    order = torch.where(follow[:, None], order, kept)
                order = order.to(torch.int32)
                changed |= current[i] is None or not torch.equal(order, current[i])
                current[i] = order
            del grads
            if not changed or step == steps - 1:
                break
        return {i: order for i, order in current.items() if order is not None}


def _reorderable(x) -> bool:
    return (torch.is_tensor(x) and x.is_floating_point() and x.dim() >= 1 and x.numel() > 1
            and x.shape[0] > 0)


def _flat(x: torch.Tensor) -> torch.Tensor:
    """x as (samples, values): a sample is an index of its first dimension (the whole tensor
    where it has one dimension)."""
    return x.reshape(1, -1) if x.dim() == 1 else x.reshape(x.shape[0], -1)


def _arranged(x: torch.Tensor, order: torch.Tensor) -> torch.Tensor:
    """x's values, each sample's sorted ascending and written to the positions `order` names in
    turn (order = x's own argsort gives x back)."""
    flat = _flat(x)
    placed = torch.empty_like(flat).scatter_(-1, order.long(), flat.sort(-1).values)
    return placed.view(x.shape)


def _targets(seen: dict, out, seed: int) -> dict:
    """Per hidden layer (hook index): its unit dimension, the samples (first-dimension indices
    of its output) it drives, and the unit each position of those drives, drawn from `seed`.
    Samples go to the layers in turn from a secret offset; a layer whose output is the model's
    own, or that has a single unit, drives none (its units are checked by every trial)."""
    returned = {id(t) for t in (out if isinstance(out, (tuple, list)) else [out]) if torch.is_tensor(t)}
    hidden = []
    for k in sorted(seen):
        _, z, unit_dim = seen[k]
        if not torch.is_tensor(z) or id(z) in returned or z.dim() < 1 or not z.is_floating_point():
            continue
        unit_dim = unit_dim % z.dim() if z.dim() > 1 else 0
        if z.shape[unit_dim] < 2 or z.numel() == 0:
            continue
        hidden.append((k, unit_dim))
    if not hidden:
        return {}
    gen = torch.Generator().manual_seed((seed ^ _TARGET_SEED) % (1 << 62))
    offset = int(torch.randint(len(hidden), (1,), generator=gen))
    targets = {}
    for j, (k, unit_dim) in enumerate(hidden):
        z = seen[k][1].movedim(unit_dim, -1)
        samples = z.shape[0] if z.dim() > 1 else 1
        rows = [r for r in range(samples) if (r + offset) % len(hidden) == j]
        if not rows:
            continue
        if z.dim() <= 2 and len(rows) <= z.shape[-1]:  # one unit a sample: all different
            units = torch.randperm(z.shape[-1], generator=gen)[:len(rows)]
        else:
            units = torch.randint(z.shape[-1], (len(rows),) + tuple(z.shape[1:-1]), generator=gen)
        targets[k] = (unit_dim, torch.tensor(rows), units)
    return targets


def _driven(z: torch.Tensor, unit_dim: int, rows: torch.Tensor, units: torch.Tensor) -> torch.Tensor:
    """The sum of each driven position's chosen unit."""
    z = z.movedim(unit_dim, -1)
    if z.dim() == 1:
        z = z.unsqueeze(0)
    picked = z.index_select(0, rows.to(z.device))
    return picked.gather(-1, units.to(z.device).unsqueeze(-1)).sum()
