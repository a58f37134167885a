"""Correctness inputs: the task's own generator, plus the broader inputs some tasks need.

KernelBench inputs are all `torch.rand` (nonnegative), so an identity copy passes ReLU-like tasks
and zeros pass Softmax/Frobenius under an absolute tolerance. The tasks below get extra trials
that separate honest kernels from such shortcuts. Timing keeps the original generator.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import secrets
from dataclasses import dataclass
from typing import Callable, Iterator

import torch

from .cpu_draws import PhiloxDraws
from .perturb import one_per_stretch
from .seeds import derived_seed

ACTIVATION_TASKS = {
    "level1/19_ReLU", "level1/20_LeakyReLU", "level1/31_ELU", "level1/29_Softplus",
    "level1/88_MinGPTNewGelu",
    # Beyond the spec's list: the other elementwise activations, whose [0, 1) inputs would let a
    # curve fitted to that range pass as the activation.
    "level1/21_Sigmoid", "level1/22_Tanh", "level1/25_Swish", "level1/26_GELU_", "level1/27_SELU_",
    "level1/28_HardSigmoid", "level1/30_Softsign", "level1/32_HardTanh",
}
SOFTMAX_TASKS = {"level1/23_Softmax"}
FROBENIUS_TASKS = {"level1/37_FrobeniusNorm_"}
NORMALIZED_TASKS = SOFTMAX_TASKS | FROBENIUS_TASKS
# Normalisations over groups of 65535 to 17 million elements at full size: their statistics
# estimated from a few percent of each group stay within tolerance on the task's [0, 1) inputs
# (a third fewer reads). (RMSNorm's groups are its 64 features: a sample saves nothing there.)
STATISTICS_TASKS = {"level1/33_BatchNorm", "level1/34_InstanceNorm", "level1/35_GroupNorm_",
                    "level1/38_L1Norm_", "level1/39_L2Norm_", "level1/40_LayerNorm"}
# Index reductions: the task's random inputs never tie, so an argmax keeping the last of equal
# maxima passed (torch answers the first; red-team pass 53). One trial of constant inputs has
# every element tie.
INDEX_TASKS = {"level1/51_Argmax_over_a_dimension", "level1/52_Argmin_over_a_dimension"}
# Max and min reductions over a dimension: the largest of a column's [0, 1) values is near 1, so
# a kernel that stopped reading a column once it held a value near the range's bound wrote a
# value within tolerance, checking the bound only on a prefix to pass the random-sign trial
# (red-team pass 61: 55 % of the input unread, 6 of 6 scored). Their last random trial and
# timed calls carry spikes beyond the range (below it for a minimum) at secret positions.
EXTREME_TASKS = {"level1/49_Max_reduction_over_a_dimension": 1.0,
                 "level1/53_Min_reduction_over_a_dimension": -1.0}  # -> the spikes' sign
TIE_LABEL = "constant inputs (every element ties: the first index of the extreme is the answer)"
# ...and a kernel keeping the last of tied maxima unless its column was constant (max == min)
# passed that trial (red-team pass 66): one trial draws every element from a few random levels,
# so most columns hold tied extremes among other values, at random positions.
LEVELS = 16
LEVELS_LABEL = (f"values taking {LEVELS} random levels (extremes tie at random positions among "
                "other values: the first index of the extreme is the answer)")
# Normalisations with an eps under the square root: every other trial's variance (or mean
# square) is ~1/12 (1/3) of its values' scale or more, where eps moves the output by ~1e-4 of
# itself, so a kernel leaving eps out (or computing E[x^2] - mean^2 without it) passed them all
# and was off 170-250x the tolerance on the task's values scaled by 1e-4 (red-team pass 66).
# One trial scales the task's own values by SMALL_SCALE: the mean square (~3e-7) is then well
# below the references' eps (1e-5) and the outputs (~0.16) stay clear of the tolerance.
EPS_TASKS = {"level1/33_BatchNorm", "level1/34_InstanceNorm", "level1/35_GroupNorm_",
             "level1/36_RMSNorm_", "level1/40_LayerNorm"}
# Maxima and minima (and their indices) started at 0 instead of the first element: a maximum's
# column of [0, 1) values always exceeds 0, and one of 64 random signs is all negative with
# probability 2^-64, so a kernel starting at 0 passed (red-team pass 91: argmax wrong on 978 of
# 1008 columns of log-probabilities). One trial moves every value to the side of zero where
# such a start is wrong, below it for a maximum, above it for a minimum, every value far from
# zero (red-team pass 92: a start at -5 passed a trial in [-2, -1), and values spread from 1
# down would leave each column's extreme near 1).
AWAY_FROM_ZERO = {"level1/49_Max_reduction_over_a_dimension": -1.0,
                  "level1/51_Argmax_over_a_dimension": -1.0,
                  "level1/52_Argmin_over_a_dimension": 1.0,
                  "level1/53_Min_reduction_over_a_dimension": 1.0}
AWAY_SPAN = (1e5, 1e6)
AWAY_LABEL = (f"values all beyond zero, {AWAY_SPAN[0]:g} to {AWAY_SPAN[1]:g} in size (negative for "
              "a maximum, positive for a minimum: an extreme started at 0, or at another finite "
              "value short of that, is wrong)")
# Normalisations that subtract a mean: their [0, 1) and signed trials have |mean| / sd of 2 at
# most, where a variance computed as E[x^2] - mean^2 in float32 holds; red-team pass 91's
# LayerNorm that did so was off 0.15 on values around 1000. One trial adds OFFSET to the task's
# own values: the output is the same, a one-pass float32 variance is not.
OFFSET_TASKS = {"level1/33_BatchNorm", "level1/34_InstanceNorm", "level1/35_GroupNorm_",
                "level1/40_LayerNorm"}
OFFSET = 1000.0
OFFSET_LABEL = (f"the task's own values plus {OFFSET:g} (the statistics computed stably: no "
                "E[x^2] - mean^2)")
# Squares and sums in float16 overflow past 65504: an RMSNorm or Frobenius norm squaring in
# float16 and a sum accumulating in it were right on every trial (values within 4, or 100 for
# Frobenius's scaled one) and wrong (inf, 0) on values of a few hundred (red-team pass 92). One
# trial multiplies the task's own values by LARGE_SCALE where the output is the same for any
# scale (the normalisations) or grows with it (sums and means).
LARGE_TASKS = {"level1/33_BatchNorm", "level1/34_InstanceNorm", "level1/35_GroupNorm_",
               "level1/36_RMSNorm_", "level1/38_L1Norm_", "level1/39_L2Norm_", "level1/40_LayerNorm",
               "level1/47_Sum_reduction_over_a_dimension",
               "level1/48_Mean_reduction_over_a_dimension"}
LARGE_SCALE = 1e4
LARGE_LABEL = (f"the task's own values scaled by {LARGE_SCALE:g} (float16 squares and sums "
               "overflow there)")
SMALL_SCALE = 1e-3
SMALL_LABEL = f"the task's own inputs scaled by {SMALL_SCALE:g} (the normalisation's eps matters)"


@dataclass(frozen=True)
class Trial:
    label: str
    inputs: list
    regenerate: Callable[[], list]  # the same inputs again, made afresh from their seed
    # Inputs whose sums cancel (signed, scaled): an output element near zero is what is left of
    # terms far larger, and carries their rounding error; its tolerance grows with the output's
    # scale (correctness.check_output's `cancelling`).
    cancelling: bool = False


def _floats(inputs: list, make: Callable[[torch.Tensor, int], torch.Tensor],
            fresh: bool = False) -> list:
    """Replace every floating tensor input by make(out, index), which fills `out` in place: a new
    tensor like the input, or (`fresh`: tensors just allocated for this, contiguous and unshared)
    the input itself, so a full-size maker costs no second allocation of its size."""
    return [make(x if fresh else torch.empty_like(x), i)  # (the input's strides kept)
            if torch.is_tensor(x) and x.is_floating_point() else x
            for i, x in enumerate(inputs)]


# Each maker fills every element of `out` (a tensor of the input's shape and dtype) in place and
# returns it, in as few passes over memory as it can: at full size a pass is 6 GiB.
SIGNED_RANGE = 100.0
SIGNED_LABEL_ACTIVATION = f"signed inputs in [-{SIGNED_RANGE:g}, {SIGNED_RANGE:g}], dense near 0"


def _signed(out: torch.Tensor, _: int) -> torch.Tensor:
    """sinh of a uniform draw: as many values under 1 in size as beyond 40, up to 100. A tanh,
    sigmoid or softplus from exp(x) without its overflow guard turns NaN or inf beyond 44 or
    88.7 (red-team pass 91: they passed a uniform [-32, 32])."""
    return out.uniform_(-math.asinh(SIGNED_RANGE), math.asinh(SIGNED_RANGE)).sinh_()


def _zeros(out: torch.Tensor, _: int) -> torch.Tensor:
    return out.zero_()


def _constant(out: torch.Tensor, _: int) -> torch.Tensor:
    return out.fill_(0.75)


def _contiguous(out: torch.Tensor) -> torch.Tensor:
    """out, or a contiguous tensor like it to fill instead (makers that view it flat)."""
    return out if out.is_contiguous() else torch.empty(out.shape, dtype=out.dtype, device=out.device)


def _by_rows(out: torch.Tensor, fill) -> torch.Tensor:
    """fill(rows) on out's elements as rows of its last dimension (a contiguous tensor filled
    and returned where out is not contiguous)."""
    target = _contiguous(out)
    fill(target.view(-1, target.shape[-1]) if target.dim() > 1 else target.view(1, -1))
    return target


def _levels(out: torch.Tensor, _: int) -> torch.Tensor:
    """Every element one of LEVELS random values (drawn afresh per trial, in [0, 1)), so each
    reduced column holds its extreme several times at random positions among other values."""
    out = _contiguous(out)
    levels = torch.rand(LEVELS, dtype=out.dtype, device=out.device)
    flat = out.view(-1)
    for start in range(0, flat.numel(), SPARSE_CHUNK):  # no index of the input's size
        part = flat[start:start + SPARSE_CHUNK]
        part.copy_(levels[torch.randint(0, LEVELS, (part.numel(),), device=out.device,
                                        dtype=torch.int32)])
    return out


def _row_peaked(out: torch.Tensor, _: int) -> torch.Tensor:
    """Each row peaks at a different column with a different height: row-mixing kernels fail."""
    def fill(rows):
        rows.uniform_()
        r = torch.arange(rows.shape[0], device=rows.device)
        rows[r, (r * 7919) % rows.shape[1]] = 8.0 + (r % 13).to(rows.dtype)
    return _by_rows(out, fill)


def _row_shifted(out: torch.Tensor, _: int) -> torch.Tensor:
    """[0, 1) values shifted by 100 to 160 per row (softmax is the same after a shift): a softmax
    that does not subtract its row's maximum overflows exp (float32's ends at 88.7) to inf and
    NaN. The other trials stop at 20, where that bug passed (red-team pass 48)."""
    def fill(rows):
        shift = 100.0 + 10.0 * (torch.arange(rows.shape[0], device=rows.device, dtype=rows.dtype) % 7)
        rows.uniform_().add_(shift[:, None])
    return _by_rows(out, fill)


SPREAD_LABEL = ("values in [-100, 0] within each row, each row's maximum 120 at a random "
                "column")


def _row_spread(out: torch.Tensor, _: int) -> torch.Tensor:
    """Values in [-100, 0] and one of 120 per row: every other element lies 120 or more below
    the maximum, past exp's float32 range, so only the maximum (no other element, such as the
    row's first) is a safe shift (red-team pass 91: a softmax shifted by each row's first
    element passed every other trial). The clear maximum keeps the output's peak at 1, and with
    it the tolerance (max|reference| * 1e-5): a first version spread over [-100, 100] left it
    near 0.07, and its exponentials in float32's subnormal range, which Triton's interpreter
    rounds wrongly into float16 (`legit/softmax_fp16_roundtrip.py`, refused there)."""
    def fill(rows):
        rows.uniform_(-100.0, 0.0)
        r = torch.arange(rows.shape[0], device=rows.device)
        rows[r, torch.randint(0, rows.shape[1], (rows.shape[0],), device=rows.device)] = 120.0
    return _by_rows(out, fill)


def _signed_large(out: torch.Tensor, _: int) -> torch.Tensor:
    return out.uniform_(-LARGE_SCALE, LARGE_SCALE)


def _away_from_zero(out: torch.Tensor, _: int, side: float) -> torch.Tensor:
    return out.uniform_(-AWAY_SPAN[1], -AWAY_SPAN[0]) if side < 0 else out.uniform_(*AWAY_SPAN)


def _signed_scaled(out: torch.Tensor, i: int) -> torch.Tensor:
    scale = 100.0 * (i + 1)
    return out.uniform_(-scale, scale)


SPARSE_CHUNK = 1 << 24  # elements masked at a time: no mask of the tensor's size (GiB at full size)


def _sparse(out: torch.Tensor, _: int) -> torch.Tensor:
    """About 1% of the elements nonzero, uniform in [-2, 2); the mask made a chunk at a time
    (a byte an element), so no buffer of another large size splits the allocator's blocks."""
    out = _contiguous(out)
    flat = out.view(-1).uniform_(-2.0, 2.0)
    keep = torch.empty(min(flat.numel(), SPARSE_CHUNK), dtype=torch.uint8, device=out.device)
    for start in range(0, flat.numel(), SPARSE_CHUNK):
        part = flat[start:start + SPARSE_CHUNK]
        part.mul_(keep[:part.numel()].bernoulli_(0.01))
    return out


SPIKES = 4  # in a task normalised as a whole (Frobenius): four spikes in all
# A spike's height over its stretch's measured one (the rest's root sum of squares): its square
# one to 2.25 times the rest's, so a kernel cannot add the spikes' part without reading them.
SPIKE_SPREAD = (1.0, 1.5)
# How many trailing dimensions make a stretch that lies within one normalisation group: each
# stretch gets one spike, so every group (row, instance, channel block) carries spikes and no
# kernel can repair only the few groups it found spiked. None: the whole tensor is one group.
SPIKE_STRETCH_DIMS = {
    "level1/37_FrobeniusNorm_": None, "level1/38_L1Norm_": 1, "level1/39_L2Norm_": 1,
    "level1/33_BatchNorm": 2, "level1/34_InstanceNorm": 2, "level1/35_GroupNorm_": 2,
    "level1/40_LayerNorm": 3,
    # a spike per row of the last dimension: a column reduced over dimension 1 (the tasks' own)
    # gets as many as landed in it (0, 1, 2, ... about as often as a Poisson count of mean
    # dim1 / dim2), each of a secret height: no value read tells that the rest need not be
    "level1/49_Max_reduction_over_a_dimension": 1, "level1/53_Min_reduction_over_a_dimension": 1,
}


def _spike(out: torch.Tensor, dims: int | None, height: float | None = None,
           undo: list | None = None, sign: float = 1.0) -> float | None:
    """One positive spike at a random position of every stretch of the flat tensor (the last
    `dims` dimensions; a quarter of it when `dims` is None), in square one to 2.25 times the
    rest of its stretch (SPIKE_SPREAD, secret per spike): distinct positions, so replaying the
    scatter is deterministic. Each group the task normalises over (row, instance, channel block,
    the whole tensor) is dominated by its spikes, so a statistic estimated from a sample of the
    elements misses or overweights them and is far off (a Frobenius norm from 6 % of a full-size
    input, or a LayerNorm's variance, is otherwise within tolerance), while an honest float32
    sum of squares holds it to ~1e-7. Returns the height for the next inputs of the same kind,
    which then skip the pass that measures it (kept on the host: a kernel writing out of bounds
    could shrink a device copy); with `undo`, appends what puts the replaced values back
    (perturb.restore's format). `sign` -1: the spikes are negative (a minimum's)."""
    n = out.numel()
    if n < 2 * SPIKES or not out.is_contiguous():
        return height
    stretch = (math.prod(out.shape[-dims:]) if dims and out.dim() >= dims else n // SPIKES)
    count = n // max(stretch, 1)
    if stretch < 2 or count < 1:
        return height
    where = one_per_stretch(count, stretch, out.device)
    if height is None:  # one pass, no buffer of the input's size (6 GiB at full size)
        mean_square = float(torch.linalg.vector_norm(out, dtype=torch.float32)) ** 2 / n
        height = max(1.0, (stretch * mean_square) ** 0.5)
    flat = out.view(-1)
    if undo is not None:
        undo.append((flat, where, flat.index_select(0, where)))
    # each spike SPIKE_SPREAD times the measured height, drawn per spike from the seeded RNG
    # (replayed with the positions): spikes of one known height let a kernel that learned it
    # add their squares to a norm from an eighth of the input (red-team pass 57)
    heights = torch.rand(count, dtype=out.dtype, device=out.device).mul_(
        SPIKE_SPREAD[1] - SPIKE_SPREAD[0]).add_(SPIKE_SPREAD[0]).mul_(sign * height)
    flat.index_copy_(0, where, heights)
    return height


def add_spikes(inputs: list, seed: int, task_id: str | None, heights: list | None = None,
               undo: list | None = None) -> list:
    """Spikes (`_spike`, stretches as the task's groups) on every floating tensor input, in
    place, at positions drawn from `seed`; their heights measured unless given (`heights` from
    an earlier call on inputs of the same task); with `undo`, what reverts them is appended to
    it. Returns the heights."""
    dims = SPIKE_STRETCH_DIMS.get(task_id)
    seed_torch(seed ^ 0x5BD1E995)
    floats = [x for x in inputs if torch.is_tensor(x) and x.is_floating_point()]
    sign = EXTREME_TASKS.get(task_id, 1.0)
    heights = [_spike(x, dims, h, undo, sign)
               for x, h in zip(floats, heights or [None] * len(floats))]
    _unseed()
    return heights


# Tasks whose last random trial and every timed call carry spikes: a kernel cannot tell those
# inputs from the task's own (but for a spike per group) without reading all of them, which is
# what estimating from a sample saves; nor be honest only while it counts correctness calls.
SPIKED_FAMILIES = {"frobenius", "statistics", "extreme"}
SPIKED_LABEL = "with large spikes (one per normalised group)"
EXTREME_LABEL = ("with large spikes beyond the values' range (below it for a minimum) at secret "
                 "positions, about one per reduced column, of secret heights")


def spiked_task(task_id: str | None) -> bool:
    return task_family(task_id) in SPIKED_FAMILIES


def spiked_label(task_id: str | None) -> str:
    return EXTREME_LABEL if task_id in EXTREME_TASKS else SPIKED_LABEL


EXTRA_TRIALS = {
    # task set -> [(label, how each floating input is replaced)]
    "activation": [(SIGNED_LABEL_ACTIVATION, _signed), ("all-zero inputs", _zeros)],
    "softmax": [("constant inputs", _constant), ("row-dependent peaked inputs", _row_peaked),
                ("rows shifted by 100 to 160", _row_shifted),
                (SPREAD_LABEL, _row_spread)],
    "frobenius": [("constant inputs", _constant), ("signed, scaled inputs", _signed_scaled),
                  ("sparse signed inputs", _sparse),
                  (f"signed inputs in [-{LARGE_SCALE:g}, {LARGE_SCALE:g}]", _signed_large)],
}


def task_family(task_id: str | None) -> str | None:
    if task_id in ACTIVATION_TASKS:
        return "activation"
    if task_id in SOFTMAX_TASKS:
        return "softmax"
    if task_id in FROBENIUS_TASKS:
        return "frobenius"
    if task_id in STATISTICS_TASKS:
        return "statistics"
    if task_id in EXTREME_TASKS:
        return "extreme"
    return None


def describe_extra_inputs(task_id: str | None, source: str = "") -> str:
    """The disclosure shown in the prompt: which inputs beyond the task's own generator are used
    (`source`: the reference's, whose Linear or convolution layers get unit_inputs' trial)."""
    family = task_family(task_id)
    spiked = (f"; the last random trial and the timed calls {spiked_label(task_id)} (the "
              "task's own values elsewhere)" if family in SPIKED_FAMILIES else "")
    if family not in EXTRA_TRIALS:
        units = ("; and twice the task's own values placed to drive one hidden unit of the "
                 "reference per sample (a Linear or convolution output; in every sample or, for "
                 "large samples, in some; samples and units chosen secretly, most often among "
                 "the units the random draws wake least) toward its largest: "
                 "once each driven sample's own extremes placed by the unit's gradient, once its "
                 "values reordered part of the way (a secret share for each sample), where the "
                 "reference's output is stable on them"
                 if re.search(r"\bnn\.(Linear|Conv[123]d|ConvTranspose[123]d)\b", source) else "")
        return ("the task's own get_inputs() (fresh random seeds per trial), and once the same "
                f"values with random signs and {SIGNED_SCALE:g}x their size wherever the "
                "reference computes those finitely and stably: do not rely on the generator's "
                "range" + (f"; and {TIE_LABEL}; and {LEVELS_LABEL}" if task_id in INDEX_TASKS else "")
                + (f"; and {SMALL_LABEL}" if task_id in EPS_TASKS else "")
                + (f"; and {AWAY_LABEL}" if task_id in AWAY_FROM_ZERO else "")
                + (f"; and {OFFSET_LABEL}" if task_id in OFFSET_TASKS else "")
                + (f"; and {LARGE_LABEL}" if task_id in LARGE_TASKS else "") + units + spiked)
    return (", ".join(label for label, _ in EXTRA_TRIALS[family]) + " (same shapes as get_inputs())"
            + spiked)


def generate(get_inputs: Callable[[], list], device: torch.device, seed: int) -> list:
    """The task's own inputs, created directly on the evaluation device (no host round trip).
    torch is seeded at random afterwards: `torch.initial_seed()` in a later call must not name
    the seed these inputs came from (nor, by counting, the next ones')."""
    seed_torch(seed, device)
    draws = PhiloxDraws(seed) if device.type == "cpu" else contextlib.nullcontext()
    with torch.device(device), draws:  # (on the CPU, not MT19937's draws: cpu_draws.py)
        inputs = list(get_inputs())
    inputs = [x.to(device) if torch.is_tensor(x) else x for x in inputs]
    _unseed()
    return inputs


def _unseed() -> None:
    seed_torch(secrets.randbits(62))


def seed_torch(seed: int, device: torch.device | None = None) -> None:
    """What torch.manual_seed does for the generators a task's inputs can draw from (the CPU's,
    each CUDA device's once CUDA is up), at ~1 µs instead of its ~65 µs (the evaluator's
    processes hold torch._dynamo's wrapped one): twice per timed call at small shapes, that
    was a tenth of a step. Seeding for generation on a CUDA `device` brings CUDA up first, or
    its generator would start from torch's default seed when the generation brought it up."""
    torch.default_generator.manual_seed(seed)
    if device is not None and device.type == "cuda":
        torch.cuda.init()
    if torch.cuda.is_initialized():
        for generator in torch.cuda.default_generators:
            generator.manual_seed(seed)


# random trial k's seed is derived_seed(seed, k); extra trial j's derived_seed(seed, EXTRA_SEED + j)
EXTRA_SEED = 1000


def correctness_trials(get_inputs, device: torch.device, seed: int, n: int,
                       task_id: str | None, insensitive: bool = False,
                       signed: bool = False, units=None, order=None) -> Iterator[Trial]:
    """n trials from the task's generator plus the task family's extra inputs (or, for a task
    whose output barely depends on its own inputs, signed scaled ones; or, where the profile
    found the reference stable on them, the task's own inputs with random signs: `signed`, and
    placed to drive its hidden units: `units`, unit_inputs.UnitInputs makers), made one at a
    time so that full-size tasks (6 GiB per tensor) hold one trial's inputs at once; in the
    order of `order` (indices into that list; the evaluator's is secret) where given."""
    specs = []  # (label, how its inputs are made, cancelling)
    spiked = spiked_task(task_id)
    for k in range(n):
        if spiked and k == n - 1:
            specs.append((f"random inputs #{k + 1} {spiked_label(task_id)}", functools.partial(
                _spiked_inputs, get_inputs, device, derived_seed(seed, k), task_id), False))
        else:
            specs.append((f"random inputs #{k + 1}", functools.partial(
                generate, get_inputs, device, derived_seed(seed, k)), False))
    for j, (label, inputs_from, cancelling) in enumerate(
            _extra_trials(task_id, insensitive, signed, units)):
        # a draw of its own per extra trial: the two unit trials drive different units
        specs.append((label, functools.partial(inputs_from, get_inputs, device,
                                               derived_seed(seed, EXTRA_SEED + j)), cancelling))
    for k in range(len(specs)) if order is None else order:
        label, again, cancelling = specs[k]
        yield Trial(label, again(), again, cancelling=cancelling)


def secret_order(count: int) -> list[int]:
    """A secret permutation of the correctness trials: in a fixed order a kernel counting its
    calls knew which were the extra trials and was honest on those alone (red-team pass 56: a
    GEMM+ReLU skipping its dead columns on every other call scored 6 of 6)."""
    return secrets.SystemRandom().sample(range(count), count)


# A task whose outputs barely depend on its own inputs (the profile finds it): one output made
# without reading them would pass every random trial; inputs a hundred times larger and signed
# move the output far beyond the tolerance.
INSENSITIVE_TRIALS = [("signed, scaled inputs (this task's outputs barely depend on its own "
                       "inputs' values)", _signed_scaled)]


def signed_scaled(get_inputs) -> Callable[[], list]:
    """The task's generator with its floating inputs replaced as INSENSITIVE_TRIALS' are (from
    torch's seeded RNG: replayable like the task's own): the timed calls' inputs of a task whose
    outputs barely depend on its own inputs, where a kept output would pass every re-check."""
    def make() -> list:
        return _floats(list(get_inputs()), _signed_scaled)
    return make


def insensitive_trial_inputs(get_inputs, device: torch.device, seed: int) -> list:
    """The inputs of INSENSITIVE_TRIALS' trial (for the profile to check they discriminate)."""
    return _extra_inputs(get_inputs, device, seed, INSENSITIVE_TRIALS[0][1])


# Every other task's inputs come from torch.rand, in [0, 1): a kernel relying on that passed
# every trial while wrong on signed inputs (red-team pass 48: a GEMM+ReLU that skipped the
# output columns its weights made dead for non-negative inputs, 17 % of the work; a max
# reduction started at 0; a bf16 matmul whose rounding never cancelled). One trial gives the
# task's own values random signs and SIGNED_SCALE times their size, where the profile found
# the reference finite and stable on them (`signed_trial`); sums then cancel, so its tolerance
# grows with the output's scale. (Signs alone woke too few of those dead columns: a third of
# the draws through the server found none wrong.)
SIGNED_SCALE = 4.0
SIGNED_LABEL = f"the task's own inputs with random signs, {SIGNED_SCALE:g}x their size"


def signed_own_inputs(get_inputs, device: torch.device, seed: int, into: list | None = None) -> list:
    """The task's inputs from `seed`, each floating tensor's elements negated at random and
    scaled by SIGNED_SCALE (made anew: `into` is not used)."""
    inputs = generate(get_inputs, device, seed)
    seed_torch(seed ^ 0x2545F491)
    for x in inputs:
        if torch.is_tensor(x) and x.is_floating_point() and x.numel():
            x.mul_(torch.empty_like(x).bernoulli_(0.5).mul_(2 * SIGNED_SCALE).sub_(SIGNED_SCALE))
    _unseed()
    return inputs


def _own_inputs_changed(get_inputs, device: torch.device, seed: int, into: list | None = None, *,
                        change: Callable[[torch.Tensor], torch.Tensor]) -> list:
    """The task's inputs from `seed`, `change` applied in place to each floating tensor (made
    anew: `into` is not used)."""
    inputs = generate(get_inputs, device, seed)
    for x in inputs:
        if torch.is_tensor(x) and x.is_floating_point():
            change(x)
    return inputs


# the task's own values scaled (eps matters; float16 overflows) or shifted (one-pass variance)
small_own_inputs = functools.partial(_own_inputs_changed, change=lambda x: x.mul_(SMALL_SCALE))
large_own_inputs = functools.partial(_own_inputs_changed, change=lambda x: x.mul_(LARGE_SCALE))
offset_own_inputs = functools.partial(_own_inputs_changed, change=lambda x: x.add_(OFFSET))


def extra_trials(task_id: str | None, signed: bool, units=None) -> list:
    """The extra trials of a task whose outputs depend on its inputs (the timed calls' extra
    rounds: timed_inputs.EXTRA_SHARE)."""
    return _extra_trials(task_id, False, signed, units)


def _extra_trials(task_id: str | None, insensitive: bool, signed: bool = False, units=None) -> list:
    """(label, how its inputs are made from (get_inputs, device, seed), cancelling) per extra
    trial: the family's, else an insensitive task's, else the random-sign one where allowed, the
    tie trial of an index reduction and the unit trials (`units`, their makers) where given."""
    family = EXTRA_TRIALS.get(task_family(task_id))
    if family is None and not insensitive:
        trials = [(SIGNED_LABEL, signed_own_inputs, True)] if signed else []
        if task_id in INDEX_TASKS:
            trials.append((TIE_LABEL, functools.partial(_extra_inputs, make=_constant), False))
            trials.append((LEVELS_LABEL, functools.partial(_extra_inputs, make=_levels), False))
        if task_id in EPS_TASKS:
            trials.append((SMALL_LABEL, small_own_inputs, False))
        if task_id in AWAY_FROM_ZERO:
            trials.append((AWAY_LABEL, functools.partial(
                _extra_inputs, make=functools.partial(_away_from_zero, side=AWAY_FROM_ZERO[task_id])),
                False))
        if task_id in OFFSET_TASKS:
            trials.append((OFFSET_LABEL, offset_own_inputs, False))
        if task_id in LARGE_TASKS:
            trials.append((LARGE_LABEL, large_own_inputs, False))
        trials += [(maker.label, maker, False) for maker in units or ()]
        return trials
    return [(label, functools.partial(_extra_inputs, make=make), make is _signed_scaled)
            for label, make in (family if family is not None else INSENSITIVE_TRIALS)]


def _spiked_inputs(get_inputs, device: torch.device, seed: int, task_id: str | None) -> list:
    inputs = generate(get_inputs, device, seed)
    add_spikes(inputs, seed, task_id)
    return inputs


def _extra_inputs(get_inputs, device: torch.device, seed: int, make, into: list | None = None) -> list:
    """An extra trial's inputs from `seed`. `into`: the task's inputs of the same shapes, which
    the makers may fill in place where they fit (contiguous, unshared floating tensors): timed
    calls on perturbed inputs write a round over the same buffers, at full size in one pass and
    no second 6 GiB tensor; what comes back is then partly `into`'s own tensors."""
    meta = _meta_inputs(get_inputs, seed)
    if meta is None:  # the generator needs data or makes other tensors: it runs for real
        templates, fresh = generate(get_inputs, device, seed), False
    elif into is not None and _fillable(into, meta):
        templates, fresh = [x if torch.is_tensor(m) else m for x, m in zip(into, meta)], True
    else:  # allocated, not written: the makers fill them
        templates, fresh = [torch.empty(x.shape, dtype=x.dtype, device=device)
                            if torch.is_tensor(x) else x for x in meta], True
    seed_torch(seed)
    inputs = _floats(templates, make, fresh)
    _unseed()
    return inputs


def _meta_inputs(get_inputs, seed: int) -> list | None:
    """The task's inputs as templates for the makers, which use only a floating tensor's shape
    and dtype: generated on the meta device (no data). None where the generator needs data
    (`.item()`, numpy) or makes other tensors (indices, masks: their values matter)."""
    try:
        seed_torch(seed)
        with torch.device("meta"):
            meta = list(get_inputs())
    except Exception:
        return None
    if any(torch.is_tensor(x) and not x.is_floating_point() for x in meta):
        return None
    return meta


SEED_FREE_MAKERS = (_zeros, _constant)  # fill every element with one value, whatever the seed


def same_for_every_seed(inputs_from, get_inputs, seeds: list) -> bool:
    """Whether an extra trial's maker makes the same inputs from each of `seeds`: a maker that
    fills with one value (zeros, a constant) where every tensor input is a floating one it
    fills and the other arguments, shapes and dtypes come out the same from the generator on
    the meta device (no data made). Then one reference output serves every timed round of the
    kind (the re-checks' cost at full size is mostly the reference's forward)."""
    if getattr(inputs_from, "func", None) is not _extra_inputs or (
            inputs_from.keywords.get("make") not in SEED_FREE_MAKERS):
        return False
    metas = [_meta_inputs(get_inputs, seed) for seed in seeds]
    _unseed()
    if any(meta is None for meta in metas):
        return False
    first = metas[0]
    for meta in metas[1:]:
        if len(meta) != len(first):
            return False
        for a, b in zip(first, meta):
            if torch.is_tensor(a) != torch.is_tensor(b):
                return False
            if torch.is_tensor(a):
                if a.shape != b.shape or a.dtype != b.dtype:
                    return False
            elif type(a) is not type(b) or not _equal_argument(a, b):
                return False
    return True


def _equal_argument(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an argument that cannot say: not the same
        return False


def _fillable(into: list, meta: list) -> bool:
    """Whether the makers may fill `into`'s tensors in place: one for each of the templates',
    of its shape and dtype, contiguous, no two sharing memory."""
    if len(into) != len(meta):
        return False
    pairs = [(x, m) for x, m in zip(into, meta) if torch.is_tensor(m)]
    if not all(torch.is_tensor(x) and x.shape == m.shape and x.dtype == m.dtype and x.is_contiguous()
               for x, m in pairs):
        return False
    storages = [x.untyped_storage().data_ptr() for x, _ in pairs]
    return len(set(storages)) == len(storages)


def replayable(get_inputs, device: torch.device, seed: int) -> bool:
    """Whether the generator makes the same inputs from the same seed (torch's RNG only): then
    inputs can be made again for checking instead of kept, where a kernel writing out of bounds
    could reach them."""
    first, second = generate(get_inputs, device, seed), generate(get_inputs, device, seed)
    return len(first) == len(second) and all(
        (torch.is_tensor(b) and a.shape == b.shape and a.dtype == b.dtype and torch.equal(a, b))
        if torch.is_tensor(a) else a == b for a, b in zip(first, second))


def trial_count(n: int, task_id: str | None, insensitive: bool = False, signed: bool = False,
                units=None) -> int:
    return n + len(_extra_trials(task_id, insensitive, signed, units))
