"""Inputs that wake a reference's hidden units: the task's own values, placed by a unit's gradient.

Red-team pass 53: a GEMM+ReLU kernel skipped the output columns that random [0, 1) inputs never
make positive (mean + 5 sd < 0), although inputs in [0, 1) that do exist (x_k near 1 where the
column's weight is positive, near 0 elsewhere): wrong on legitimate inputs with 17 % of the GEMM
saved, and no random draw ever comes near those inputs. Here each driven sample of the inputs
(every sample; of large inputs a secret few, DRIVEN_VALUES) is a genuine draw of the task's
generator whose values are reordered to follow the gradient of one hidden unit of the
reference (an output of a Linear or convolution layer that is not the model's output as it
stands), a unit chosen secretly for each sample. For a unit computed from
the inputs by one layer, ordering the values by the gradient gives the largest value the unit
takes over every order of the draw (the rearrangement inequality); behind other layers the
reordering is repeated once (an ascent).

Two such trials (red-team passes 54 and 55). In one, each sample is driven all the way: after
the ascent, each position takes the sample's own largest or smallest value by the sign of the
unit's gradient there (for a layer reading the inputs, the unit's largest value over the
draw's range: a reordering reaches only about two thirds of it, and a column firing only
beyond that escaped, pass 55). Such a sample is easy to recognise (two values), and a kernel
computing recognised rows in full is caught by the other trial: each sample's order follows
its gradient's ranks mixed with noise in a secret proportion drawn per sample from
[PART_MIN, PART_MAX), a genuine draw reordered, in which driven units land anywhere from near
their random level to most of their reordering maximum and no position stands out (an exact
reordering puts a sample's largest values where the unit's weights are largest: four reads per
unit told such rows apart, pass 54). A unit made to fire only just is told from a random row
only by computing most of it.

The other way too (red-team pass 86): a GEMM+ReLU kernel left unclamped the columns that
random [0, 1) draws never drive below zero, though inputs in [0, 1) that do exist; no trial
drove a unit down. The samples a trial gives a layer beyond its quiet units (QUIET_ROWS) now
drive its loudest units (those the output depended on in every sample and position of the
draw: their ReLU never clipped) to their smallest, where a layer has both kinds.
"""

from __future__ import annotations

import dataclasses
import functools
import secrets
from typing import Callable

import torch
from torch.utils.hooks import RemovableHandle

from .inputs import generate
from .secret_memory import secret_allocations, secret_grad
from .seeds import derived_seed

# (A transposed convolution's output positions a kernel's extent apart read disjoint inputs too.)
UNIT_MODULES = (torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d, torch.nn.Conv3d,
                torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)
# Reorderings at most where a unit lies behind other layers; one is exact where every unit's
# layer reads the inputs themselves (the gradient does not depend on them there). Behind one
# or eight layers (bundled MLP, DeepNarrowMLP) a second step lifted the driven units 1-5 % more
# than the first, a third 0.5-2 % more again: two.
STEPS = 2
# The second trial's share of noise in each sample's final order (0: the exact rearrangement).
# At the bundled GEMM+ReLU, with shares in [0, 0.9) pass 54's kernel (four reads per dead column
# of a row, its 32-row block computed in full if one looks driven) scored 8 of 10; in [0.4, 0.9)
# it and pass 53's were refused 10 of 10.
PART_MIN, PART_MAX = 0.4, 0.9
FULL_LABEL = ("each driven sample's own largest and smallest values placed where they drive one "
              "hidden unit of the reference to its largest, or one the draw never clipped to its "
              "smallest (samples and units chosen secretly)")
# Values driven at most a trial (a full-size convolution's 128 samples of 4 million values took
# 105 ms to make on the H200, over the profile's limit, so it had no unit trial; and a step makes
# a trial for each unit round too): a trial drives max(DRIVEN_MIN, DRIVEN_VALUES // (values a
# sample)) samples at most, chosen secretly, its ascent runs the reference on those alone, and
# only those are reordered; the rest stay their draw. A driven sample of a convolution drives a
# unit at thousands of positions, every channel many times; a Linear's drives one unit, and at
# 8192 values a sample a trial still drives 1024 (a kernel skipping units that no driven sample
# reaches saves about one in that many). DRIVEN_MIN: the part-of-the-way trial drives each
# sample a secret share of the way, some barely: enough samples that some go far (the tests'
# dead-channel Conv2d, `bench/unit_wake.py`: a dead channel fired in ~20 % of the driven samples,
# in 37 of 40 trials with 8 driven, 21 with 4; all the way, every driven sample wakes them).
DRIVEN_VALUES = 1 << 23
DRIVEN_MIN = 8
# A layer's quietest units (`_quiet_units`): this share of them at least, driven by QUIET_ROWS
# of the samples a trial gives that layer (the rest drive the other units, drawn at random).
QUIET_SHARE = 8
QUIET_ROWS = 0.75
PART_LABEL = ("the task's own values reordered within each driven sample part of the way toward "
              "driving one hidden unit of the reference to its largest, or one the draw never "
              "clipped to its smallest (samples and units chosen secretly)")


class _Unsliced(Exception):
    """The reference failed on a slice of its batch (its batch is fixed)."""


@dataclasses.dataclass
class _Kept:
    """What an ascent found for one input: which samples it moves (first-dimension indices,
    ascending; `_flat`'s) and, for those samples' stretches, the positions that receive their
    values in ascending order (int32) or the signs of a corner (int8)."""
    samples: torch.Tensor
    values: torch.Tensor

    @property
    def dtype(self) -> torch.dtype:
        return self.values.dtype


class UnitInputs:
    """The trial's maker (inputs.py's signature: get_inputs, device, seed, into), bound to the
    reference model; `restore` puts its pristine parameters back before an ascent (a kernel may
    have written over them). What each seed's ascent found is kept (an order, int32, or a
    corner's signs, int8; on the device: copies to the host cost more than the ascent at 8
    million values), so making that seed's inputs again (the copy the reference computes on, a
    timed round's re-check) gives the same values without a second ascent, whose GPU gradients
    need not repeat bit for bit. A kernel writing over what is kept gains nothing: the inputs
    made again then differ from those it was given, which the comparison refuses. `part`: the
    second trial's maker (each sample driven part of the way). `found`: whether the last
    ascent had hidden units to drive."""

    # A kernel wrong only where a unit wakes is wrong in the driven samples alone, perhaps a few
    # of a large batch: a timed round's re-check looks anywhere in its output, not in a sample
    # of rows (timed_inputs.ROW_MIN).
    few_samples = True

    def __init__(self, model: torch.nn.Module, restore: Callable[[], None] = lambda: None,
                 part: bool = False):
        self.model, self.restore, self.part = model, restore, part
        self.label = PART_LABEL if part else FULL_LABEL
        self.orders: dict[int, dict[int, _Kept]] = {}
        self.found = False
        # The driven samples and units come from the inputs' seed mixed with this secret: from
        # the seed alone, which a kernel can read back from the inputs it was given (on the
        # CPU, six floats of an MT19937 draw; red-team pass 57), they could be known.
        self.salt = secrets.randbits(62)

    def __call__(self, get_inputs, device: torch.device, seed: int, into: list | None = None) -> list:
        inputs = generate(get_inputs, device, seed)
        orders = self.orders.get(seed)
        if orders is None:
            self.restore()
            with secret_allocations(device):  # its gradients name the driven units (pass 59)
                orders = self.orders[seed] = self._ascend(inputs, derived_seed(seed, self.salt))
        return [_made(x, orders[i]) if i in orders else x for i, x in enumerate(inputs)]

    def _ascend(self, inputs: list, seed: int) -> dict[int, _Kept]:
        """Per reorderable input (index), what places its driven samples' values (`_Kept`).
        Empty where the reference has no hidden unit. `seed`: the secret the samples, units and
        shares are drawn from (the inputs' seed mixed with `salt`)."""
        self.found = False
        movable = [i for i, x in enumerate(inputs) if _reorderable(x)]
        layers = [m for m in self.model.modules() if isinstance(m, UNIT_MODULES)]
        if not movable or not layers:
            return {}
        seen: dict[int, _Seen] = {}
        # Every hook handle takes its id from one class-wide count: a hook the submission's forward
        # registers (and removes) would read the ascent's hooks in it, and know the next inputs
        # driven (red-team pass 77). The count is put back once they are removed.
        next_id = RemovableHandle.next_id
        hooks = [m.register_forward_hook(functools.partial(_record, seen, k, m))
                 for k, m in enumerate(layers)]
        cap = max(DRIVEN_MIN, DRIVEN_VALUES // max(_flat(inputs[i]).shape[1] for i in movable))
        try:
            with torch.enable_grad():
                chosen = _chosen(inputs, movable, cap, seed)
                if chosen is not None:  # every sample of the slice driven
                    try:
                        kept = self._reorder([_batch_of(x, chosen, inputs[movable[0]].shape[0])
                                              for x in inputs], movable, seen, seed, None)
                        return {i: _Kept(chosen[k.samples], k.values) for i, k in kept.items()}
                    except _Unsliced:  # a reference whose batch is fixed: the whole batch
                        self.found = False
                        seen.clear()
                return self._reorder(inputs, movable, seen, seed, cap, whole=True)
        finally:
            for hook in hooks:
                hook.remove()
            RemovableHandle.next_id = next_id

    def _reorder(self, inputs: list, movable: list, seen: dict, seed: int, cap: int | None,
                 whole: bool = False) -> dict:
        """The ascent on `inputs` (`whole`: the task's; else a slice of its batch, on which a
        failing reference raises _Unsliced), driving at most `cap` samples (None: all)."""
        current: dict = {i: None for i in movable}  # None: the draw's own order
        moved: dict = {}  # per input: the samples the first gradient reached (at most cap)
        grads: dict = {}
        targets, steps = None, STEPS
        for step in range(steps):
            leaves = {i: (inputs[i].detach() if current[i] is None
                          else _made(inputs[i], current[i])).requires_grad_(True)
                      for i in movable}
            seen.clear()
            try:
                out = self.model(*[leaves.get(i, x) for i, x in enumerate(inputs)])
            except Exception as exc:  # noqa: BLE001 - told from the evaluator's own failures
                if whole:
                    raise
                raise _Unsliced from exc
            if targets is None:
                targets = _targets(seen, out, seed, cap)
                if not targets:
                    return {}
                self.found = True
                own = {id(leaf) for leaf in leaves.values()}
                if all(id(seen[k].input) in own for k in targets):
                    steps = 1  # every unit's layer reads the inputs: one reordering is exact
            objective = sum(_driven(seen[k], *targets[k]) for k in targets)
            if not torch.is_tensor(objective) or not objective.requires_grad:
                return {}  # the units do not depend on the inputs through autograd
            found = secret_grad(objective, [leaves[i] for i in movable], allow_unused=True)
            del leaves, out, objective
            seen.clear()
            for i, g in zip(movable, found):
                if g is not None and i not in moved:
                    moved[i] = _reached(g, cap or g.shape[0])
            grads = {i: _segments(_flat(g).index_select(0, moved[i]))
                     for i, g in zip(movable, found) if g is not None and moved[i].numel()}
            del found
            if step == steps - 1:
                break
            changed = False  # the next step's arrangement: the exact reordering
            for i, g in grads.items():
                order = _following(g, _picked(inputs[i], moved[i]), current[i]).to(torch.int32)
                changed |= current[i] is None or not torch.equal(order, current[i].values)
                current[i] = _Kept(moved[i], order)
            if not changed:
                break
        if self.part:  # the final order: each sample driven as far as drawn for it
            mix = torch.Generator(device=inputs[movable[0]].device).manual_seed(
                (seed ^ 0x5EED) % (1 << 62))
            for i, g in grads.items():
                current[i] = _Kept(moved[i], _following(g, _picked(inputs[i], moved[i]),
                                                        current[i], mix).to(torch.int32))
        else:  # all the way: each sample's extremes by the gradient's sign (int8: a corner)
            for i, g in grads.items():
                current[i] = _Kept(moved[i], torch.sign(g).to(torch.int8))
        return {i: kept for i, kept in current.items() if kept is not None}


def _chosen(inputs: list, movable: list, cap: int, seed: int) -> torch.Tensor | None:
    """The samples (ascending indices, on the inputs' device) an ascent runs the reference on,
    where a trial drives fewer than the batch holds (`cap`): a secret choice of `cap`, so the
    forward and backward cost the share driven (a full-size Conv3d's backward was 45 of a 54 ms
    making on the H200). None where the movable inputs do not share a batch (a first dimension
    of the same size, and a second), or an integer input has one as long."""
    sizes = {inputs[i].shape[0] if inputs[i].dim() >= 2 else -1 for i in movable}
    batch = sizes.pop() if len(sizes) == 1 else -1
    if batch <= cap or any(torch.is_tensor(x) and x.dim() >= 1 and x.shape[0] == batch
                           and not x.is_floating_point() for x in inputs):
        return None  # (integers along the batch may index it: out of range on a slice, which
        # on a GPU is a device-side assert no fallback survives)
    gen = torch.Generator().manual_seed((seed ^ 0xBA7C) % (1 << 62))
    return torch.randperm(batch, generator=gen)[:cap].sort().values.to(inputs[movable[0]].device)


def _batch_of(x, chosen: torch.Tensor, batch: int):
    """x's samples at `chosen` where x is batched like the movable inputs (a tensor whose first
    dimension is the batch's); anything else as it is."""
    if torch.is_tensor(x) and x.dim() >= 1 and x.shape[0] == batch:
        return x.index_select(0, chosen.to(x.device))
    return x


def _reached(g: torch.Tensor, cap: int) -> torch.Tensor:
    """The samples (ascending indices) where the gradient is not zero: at most `cap`, those it
    is largest in where more (a reference mixing its batch, as batch statistics do, reaches
    every sample)."""
    level = _flat(g).abs().amax(-1)
    reached = level.nonzero().squeeze(1)
    if reached.numel() > cap:
        reached = level.topk(cap).indices.sort().values
    return reached


def _picked(x: torch.Tensor, samples: torch.Tensor) -> torch.Tensor:
    """x's samples (`_flat`) at `samples`: (len(samples), values)."""
    flat = _flat(x)
    return flat if samples.numel() == flat.shape[0] else flat.index_select(0, samples)


def _reorderable(x) -> bool:
    return (torch.is_tensor(x) and x.is_floating_point() and x.dim() >= 1 and x.numel() > 1
            and x.shape[0] > 0)


def _flat(x: torch.Tensor) -> torch.Tensor:
    """x as (samples, values): a sample is an index of its first dimension (the whole tensor
    where it has one dimension)."""
    return x.reshape(1, -1) if x.dim() == 1 else x.reshape(x.shape[0], -1)


# Values are reordered within stretches of a sample of at most SEGMENT (a divisor of its length,
# at least SEGMENT / 4; else the whole sample): sorting a full-size convolution's samples of a
# million values whole was most of the part-of-the-way trial's making (three sorts of every
# sample; on the CI host's CPU 1.15 of 2.0 s at a quarter of that size), and each stretch is a
# draw of its own, whose reordering drives a unit nearly as far as the whole sample's would.
SEGMENT = 4096


def _segments(x: torch.Tensor) -> torch.Tensor:
    """x as (stretches, values): each sample's values (`_flat`) cut into stretches of
    `_segment_length` (consecutive, in order: a view of the same memory where x is
    contiguous)."""
    flat = _flat(x)
    return flat.reshape(-1, _segment_length(flat.shape[-1]))


@functools.lru_cache(maxsize=64)  # a few lengths a task, asked several times a making
def _segment_length(n: int) -> int:
    if n <= SEGMENT:
        return n
    return next((c for c in range(SEGMENT, SEGMENT // 4 - 1, -1) if n % c == 0), n)


def _made(x: torch.Tensor, kept: _Kept) -> torch.Tensor:
    """The trial's inputs from the draw x and what its ascent kept: its driven samples in an
    order (int32) or a corner (int8 signs), the others as drawn."""
    picked = _picked(x, kept.samples)
    made = (_cornered(picked, kept.values) if kept.dtype == torch.int8
            else _arranged(picked, kept.values))
    if picked.shape[0] == _flat(x).shape[0]:
        return made.view(x.shape)
    return _flat(x).index_copy(0, kept.samples, made).view(x.shape)


def _cornered(flat: torch.Tensor, signs: torch.Tensor) -> torch.Tensor:
    """Each sample's (row of `flat`) largest value where `signs` (its stretches) is positive,
    its smallest where negative, its own value where zero (no gradient there)."""
    high, low = flat.amax(-1, keepdim=True), flat.amin(-1, keepdim=True)
    signs = signs.reshape(flat.shape)
    return torch.where(signs > 0, high, torch.where(signs < 0, low, flat))


def _arranged(flat: torch.Tensor, order: torch.Tensor) -> torch.Tensor:
    """Each sample's (row of `flat`) values, each stretch's (`_segments`) sorted ascending and
    written to the positions of the stretch `order` names in turn (order = the stretch's own
    argsort gives it back)."""
    stretches = _segments(flat)
    placed = torch.empty_like(stretches).scatter_(-1, order.long(), stretches.sort(-1).values)
    return placed.view(flat.shape)


def _following(g: torch.Tensor, x: torch.Tensor, current, mix: torch.Generator | None = None):
    """Per stretch, its positions in the order of its gradient `g` (stretches, values): where
    `mix` is given, of its gradient's ranks mixed with uniform noise in a proportion drawn per
    sample (the same for its stretches) from [PART_MIN, PART_MAX). A stretch with no gradient
    keeps its current order (`current`, None: the draw's own)."""
    if mix is None:
        order = g.argsort(dim=-1, stable=True)
    else:
        n = g.shape[-1]
        ranks = torch.empty_like(g).scatter_(
            -1, g.argsort(dim=-1, stable=True),
            torch.arange(n, device=g.device, dtype=g.dtype).div_(n).expand_as(g).contiguous())
        samples = _flat(x).shape[0]
        share = torch.rand(samples, 1, generator=mix, device=g.device, dtype=g.dtype).mul_(
            PART_MAX - PART_MIN).add_(PART_MIN).repeat_interleave(g.shape[0] // samples, dim=0)
        noise = torch.rand(g.shape, generator=mix, device=g.device, dtype=g.dtype)
        order = ranks.mul_(1 - share).add_(noise.mul_(share)).argsort(dim=-1, stable=True)
    follow = g.abs().amax(-1) > 0
    if not bool(follow.all()):  # a stretch no unit depends on keeps its order
        kept = _segments(x).argsort(-1) if current is None else current.values.long()
        order = torch.where(follow[:, None], order, kept)
    return order


@dataclasses.dataclass
class _Seen:
    """What a hooked layer's call produced: its input, its output as it left the layer (the
    model goes on with a copy: an in-place activation after it would overwrite it, leaving a
    dead unit no gradient; red-team pass 54), the copy, and the copy's version then."""
    input: object
    output: torch.Tensor
    unit_dim: int
    spacing: tuple  # a convolution's kernel extent per spatial dimension: driven positions apart
    passed_on: torch.Tensor
    version: int


def _record(seen: dict, k: int, module: torch.nn.Module, _mod, args, out):
    if not torch.is_tensor(out) or not out.is_floating_point():
        return None
    copy = out.clone()
    spacing = ()
    if not isinstance(module, torch.nn.Linear):
        spacing = tuple(d * (k_ - 1) + 1 for d, k_ in zip(module.dilation, module.kernel_size))
    seen[k] = _Seen(args[0] if args else None, out, -1 if not spacing else 1, spacing, copy,
                    copy._version)
    return copy


def _targets(seen: dict, out, seed: int, cap: int | None) -> dict:
    """Per hidden layer (hook index): the samples (first-dimension indices of its output) it
    drives, the unit each of their positions drives, and which positions are driven, drawn
    from `seed`. Samples go to the layers in turn from a secret offset; where a layer has more
    than `cap` (None: no limit), a secret `cap` of them are dealt out so; a layer whose output
    is the model's own as it left the layer, or that has a single unit, drives none (its units
    are checked by every trial). A convolution drives positions a kernel's extent apart (on a
    grid at a secret offset): each then follows its own channel's filter, not a blend of the
    ~200 overlapping ones every position's would make (red-team pass 54)."""
    outs = out if isinstance(out, (tuple, list)) else [out]
    returned = {id(t) for t in outs if torch.is_tensor(t)}
    hidden = []
    for k in sorted(seen):
        record = seen[k]
        z = record.output
        if id(record.passed_on) in returned and record.passed_on._version == record.version:
            continue
        unit_dim = record.unit_dim % z.dim() if z.dim() > 1 else 0
        if z.shape[unit_dim] < 2 or z.numel() == 0:
            continue
        hidden.append(k)
    if not hidden:
        return {}
    gen = torch.Generator().manual_seed(seed % (1 << 62))
    quiet, loud = _quiet_units(seen, hidden, outs, gen)
    offset = int(torch.randint(len(hidden), (1,), generator=gen))
    targets = {}
    for j, k in enumerate(hidden):
        record = seen[k]
        z = record.output.movedim(record.unit_dim % max(record.output.dim(), 1), -1)
        samples = z.shape[0] if z.dim() > 1 else 1
        pool = range(samples)
        if cap is not None and samples > cap:
            pool = sorted(int(r) for r in torch.randperm(samples, generator=gen)[:cap])
        rows = [r for n, r in enumerate(pool) if (n + offset) % len(hidden) == j]
        if not rows:
            continue
        positions = tuple(z.shape[1:-1])
        if z.dim() <= 2 and len(rows) <= z.shape[-1]:  # one unit a sample
            units, down = _quiet_first(quiet.get(k), len(rows), z.shape[-1], gen, loud.get(k))
        else:  # a unit per sample and position, drawn where they are used: on the host, a
            # full-size convolution's 2 million took 57 ms (2-core CI machine)
            bulk = torch.Generator(device=z.device).manual_seed(
                int(torch.randint(1 << 62, (1,), generator=gen)))
            units = torch.randint(z.shape[-1], (len(rows),) + positions, generator=bulk,
                                  device=z.device)
            down = None
            if k in quiet:  # QUIET_ROWS of them among the quiet units, secretly where
                few = quiet[k].to(z.device)
                pick = torch.randint(few.numel(), units.shape, generator=bulk, device=z.device)
                aimed = torch.rand(units.shape, generator=bulk, device=z.device) < QUIET_ROWS
                units = torch.where(aimed, few[pick], units)
                if k in loud:  # the rest: the loudest units, driven down
                    many = loud[k].to(z.device)
                    pick = torch.randint(many.numel(), units.shape, generator=bulk, device=z.device)
                    units, down = torch.where(aimed, units, many[pick]), ~aimed
        driven = None
        if record.spacing and len(record.spacing) == len(positions):
            driven = torch.zeros(positions, dtype=torch.bool)
            grid = tuple(slice(int(torch.randint(step, (1,), generator=gen)), None, step)
                         for step in record.spacing)
            driven[grid] = True
        targets[k] = (torch.tensor(rows), units, driven, down)
    return targets


def _quiet_units(seen: dict, hidden: list, outs: list, gen: torch.Generator) -> dict:
    """Per hidden layer: its quietest units, those on which the model's output depended in the
    fewest of the draw's samples and positions (a ReLU behind them off): an eighth of them (one
    at least) and every other unit as quiet as the last of those (in a secret order); and its
    loudest, on which it depended in every one (where some others were clipped somewhere). A kernel
    skipping units gains only on units the task's draws never wake, and those are the
    quietest: a trial drives them at every turn (red-team pass 55: a GEMM+ReLU skipping a
    column no reordering wakes scored 4 of 6 when units were drawn uniformly, the column
    targeted in a quarter of the trials; at the bundled task's weights 47 of its 128 columns
    never fire in a draw of 32 rows). How much the output depends on each unit is the gradient
    of a secret random projection of it (a plain sum cancels where outputs sum to one)."""
    floats = [t for t in outs if torch.is_tensor(t) and t.is_floating_point() and t.requires_grad]
    tracked = [k for k in hidden if seen[k].output.requires_grad]  # (a layer run under no_grad
    if not floats or not tracked:  # has none: it keeps units drawn from all of them)
        return {}, {}
    noise: dict = {}  # a generator per device the outputs lie on
    for t in floats:
        if t.device not in noise:
            noise[t.device] = torch.Generator(device=t.device).manual_seed(
                int(torch.randint(1 << 62, (1,), generator=gen)))
    projection = sum((t * torch.randn(t.shape, generator=noise[t.device], device=t.device,
                                      dtype=t.dtype)).sum() for t in floats)
    grads = secret_grad(projection, [seen[k].output for k in tracked], retain_graph=True,
                        allow_unused=True)
    quiet, loud = {}, {}
    for k, g in zip(tracked, grads):
        if g is None:
            continue
        g = g.movedim(seen[k].unit_dim % max(g.dim(), 1), -1)
        flat = g.reshape(-1, g.shape[-1])
        live = (flat != 0).sum(0).cpu()
        n = live.numel()
        secret_order = torch.randperm(n, generator=gen)
        ranked = secret_order[live[secret_order].argsort(stable=True)]
        level = live[ranked[max(1, n // QUIET_SHARE) - 1]]  # and every unit as quiet as that
        quiet[k] = ranked[:int((live <= level).sum())]
        always = secret_order[live[secret_order] == flat.shape[0]]  # never clipped in the draw
        if 0 < always.numel() < n:  # (where none ever clips, down is no other way)
            loud[k] = always
    return quiet, loud


def _quiet_first(quiet: torch.Tensor | None, count: int, n: int, gen: torch.Generator,
                 loud: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
    """`count` units, one a sample (secret samples), and which are driven down (None: none):
    QUIET_ROWS of them the quiet units in a secret order (again from the start where there are
    fewer), driven up; the rest, where the layer has `loud` units, those in a secret order,
    driven down; else the other units at random (and, where every unit is quiet, the quiet
    units not driven yet), driven up; all different where there are enough. Units that fire in
    the task's draws are checked by every random trial; the quiet ones only here, and the loud
    ones held down only here."""
    if quiet is None or count < 2:
        return torch.randperm(n, generator=gen)[:count], None
    many = max(1, int(count * QUIET_ROWS))
    turns = quiet[torch.randperm(quiet.numel(), generator=gen)]
    turns = turns.repeat(-(-many // turns.numel()))[:many]
    if loud is not None:
        rest = loud[torch.randperm(loud.numel(), generator=gen)].tolist()
    else:  # the other units first, then quiet ones not driven yet, then again from the start
        taken, quiet_set = set(turns.tolist()), set(quiet.tolist())
        order = torch.randperm(n, generator=gen).tolist()
        rest = ([u for u in order if u not in quiet_set]
                + [u for u in order if u in quiet_set and u not in taken]) or turns.tolist()
    rest = (rest * -(-(count - many) // len(rest)))[:count - many]
    mixed = torch.cat([turns, torch.tensor(rest, dtype=turns.dtype)])
    down = torch.cat([torch.zeros(many, dtype=torch.bool), torch.ones(len(rest), dtype=torch.bool)])
    shuffle = torch.randperm(count, generator=gen)
    return mixed[shuffle], (down[shuffle] if loud is not None else None)


def _driven(record: _Seen, rows: torch.Tensor, units: torch.Tensor, driven, down) -> torch.Tensor:
    """The sum of each driven position's chosen unit, negated where it is driven `down`."""
    z = record.output.movedim(record.unit_dim % max(record.output.dim(), 1), -1)
    if z.dim() == 1:
        z = z.unsqueeze(0)
    picked = z.index_select(0, rows.to(z.device))
    picked = picked.gather(-1, units.to(z.device).unsqueeze(-1)).squeeze(-1)
    if down is not None:
        down = down.to(z.device).reshape(down.shape + (1,) * (picked.dim() - down.dim()))
        picked = torch.where(down, -picked, picked)
    if driven is not None:
        picked = picked * driven.to(z.device)
    return picked.sum()
