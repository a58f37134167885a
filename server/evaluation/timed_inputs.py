"""Inputs and output samples of the timed calls: what keeps a timed call honest.

Every timed call gets inputs generated afresh from the task's generator with a seed of its own
(a hash of a secret and the round: seeds.py; no round's seed tells another's), swapped into the
argument list (one pass over memory, outside the timed interval), so memoising by pointer or by
content returns stale results, whatever the inputs' structure (a triangular matrix stays
triangular). Where generating them costs more than a quarter of the reference's runtime (a
memory-bound task at full size) and the task's profile showed a perturbation visible in the
output, the inputs are made once and perturbed before every call instead (perturb.py). torch's
seed is drawn at random again after every generation: `torch.initial_seed()` inside a call tells
nothing about its inputs or the next call's. Outputs are fingerprinted (their values at secret
positions, drawn once the call has returned from a secret seed of their own, kept on the host,
that draws them again): a uniform sample of the calls, kept by reservoir sampling (each call
joins it with a probability decided after it returned); afterwards the last call is checked
against the reference in full, and CHECKED_CALLS others, drawn uniformly from an unobservable
source, at their positions, on inputs made again from their seeds or rounds (generation and
perturbation are deterministic), so no call pays for a copy of its inputs or its output. On a
task whose output rows depend only on the same rows of some inputs (the profile shows it:
`separable_rows`), each call's fingerprint lies in a secret 1/ROW_SHARE of the rows (one per
stretch of the batch, shifted by a secret amount for every call), and a sampled call's reference
runs on those rows alone.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import secrets

import torch

from . import perturb as perturbation
from .correctness import (NORMALIZED_ATOL_SCALE, check_inputs_unchanged, clone_inputs, output_items,
                          shares_memory)
from .input_placement import InputPlacer
from .inputs import add_spikes, generate, same_for_every_seed
from .inputs import replayable as is_replayable
from .secret_memory import secret_allocations
from .seeds import derived_seed

# Generating a call's inputs may cost up to this share of the reference's runtime; above it (a
# task of at most ~7 passes over its inputs: memory-bound), perturbing (where the profile allows)
# keeps the timing stage from doubling. At 0.25, full-size Frobenius and Softmax (~0.25-0.35 on
# the H200) were decided either way from one run to the next, and a Frobenius step regenerating
# 7.5 GiB before each of its ~40 timed calls spent ~0.1 s more.
REGENERATE_MAX_SHARE = 0.15
PERTURB_MIN_BYTES = 64 << 20
# Every timed output is fingerprinted (its values at secret positions); this many calls, drawn at
# random afterwards, are checked against the reference there, besides the last call (checked in
# full; which call is last is drawn secretly): a submission dishonest on a fraction f of the calls
# (f > 1/2 to move the median) survives with probability below (1 - f)^CHECKED_CALLS ~ 3 % when
# its outputs are wrong at more than a few hundred thousandths of their elements (a returned
# stale output in perturb mode is wrong at ~3 x 65536 of 1.6e9: 65536 positions see that with
# probability 1 - e^-8). (A fingerprint check costs a reference output; a whole output kept for
# a full check cost a copy and a full comparison besides.)
FINGERPRINTED = 1 << 16
CHECKED_CALLS = 5
# Only the checked calls' fingerprints are ever used, and which calls are checked is secret and
# uniform: so instead of fingerprinting every call (~0.7 ms each, 50-70 ms a full-size step on
# the H200) a reservoir of RESERVOIR calls is kept, the i-th call joining it (in place of one
# drawn at random) with probability RESERVOIR / i, decided on the host after the call returned.
# The reservoir is a uniform sample of all calls whatever the calls do; the last call, checked
# anyway, is set aside, and CHECKED_CALLS are drawn from the rest: every other call is checked
# with the same probability as before, and a kernel that could tell a fingerprint was taken
# learns it only after its call, when each later call's odds are still RESERVOIR / i.
# ~RESERVOIR * (1 + ln(calls / RESERVOIR)) fingerprints a step: 21 of 77 calls.
RESERVOIR = CHECKED_CALLS + 1
POISONED = 1 << 16  # elements of a returned output spoiled before the next call
# Row-separable tasks (elementwise, row-wise softmax or norms, matmul by A's rows): each call's
# fingerprint lies in 1/ROW_SHARE of the rows, secret ones (one per stretch of the batch, shifted
# by a secret amount every call), and a sampled check's reference computes only those rows. A
# stale or made-up output is as wrong there as anywhere (the perturbed and spoiled positions are
# spread evenly), and rows spread over the batch and moved every call meet a kernel that skips
# some rows as often as its skipping pays, for 1/ROW_SHARE of the reference's work (5 full-size
# reference forwards were most of the re-checks' cost: 30-63 ms a step at KernelBench's
# shapes). What is wrong at a few elements only still meets the last timed call's check in full.
ROW_SHARE = 32
ROW_MIN = 16  # rows a call's fingerprint takes at least; batches under 2 * ROW_MIN are not
# sliced. Between that and ROW_MIN * ROW_SHARE a fingerprint takes ROW_MIN rows (a level-2
# convolution's batch of 128: an eighth of the reference's work, ~5x cheaper re-checks on the
# H200 in session 28). Rows meet errors spread over the batch (a kernel skipping a stretch of
# it, stale or made-up outputs); they meet errors in a few samples seldom: the extra rounds whose
# makers say so (`few_samples`: a unit trial's woken column lies in its driven samples only,
# which 16 rows of 128 meet an eighth as often as the whole batch does) are fingerprinted
# anywhere in the output, at any batch.


def rows_per_call(batch: int) -> int | None:
    """Rows a call's fingerprint takes on a row-separable task with `batch` rows: a
    ROW_SHARE-th of them, ROW_MIN at least; None for a batch under 2 * ROW_MIN."""
    return max(batch // ROW_SHARE, ROW_MIN) if batch >= 2 * ROW_MIN else None


# Timed rounds on the correctness stage's extra inputs (red-team pass 52): the random-sign
# trial, an activation's signed inputs and zeros, Softmax's shifted and spread rows. Made only among the
# correctness trials, whose number of calls is fixed, they let a kernel count its calls and
# specialise to torch.rand's [0, 1) from the first timed one. Now each kind gets one of the
# rounds after the first (secret ones among the next EXTRA_FIRST, or as many as there are
# kinds), and later one round in EXTRA_SHARE on average a kind drawn secretly, and where the
# number of calls is known, every kind at least once more at a secret round after the window;
# every such round is re-checked at its fingerprint. With as many kinds as EXTRA_FIRST the window
# is all extra rounds: a kernel counting its calls knows them (red-team pass 56), so it is the
# later rounds that meet a kernel honest there alone; one round of a kind it cannot recognise
# (the part-of-the-way unit trial) unchecked among them let it through (a sample of two later
# rounds re-checked: 8 of 10 GPU-sized steps scored; every one re-checked: 0 of 10), and with
# few timed calls (20: 16 later rounds) a kind had no later round in about half the steps.
# Where the timed inputs are perturbed (the same buffers every call) a round's inputs are
# written into those buffers and undone after its call.
EXTRA_SHARE = 8
EXTRA_FIRST = 3


@dataclasses.dataclass
class TimedCheck:
    """One re-check of a timed call's output: in full (`positions` None) or at its secret
    positions. Consecutive checks with equal `key` see the same inputs: one reference output
    serves them."""
    label: str
    key: tuple
    inputs: list
    output: object  # the call's whole output, or its values at `positions`
    positions: list | None = None  # into the reference's output for `inputs`
    shapes: list | None = None  # the shapes that reference output must have
    cancelling: bool = False  # signed inputs: sums cancel (check_output's `cancelling`)


@dataclasses.dataclass
class _Print:
    """One call's fingerprint: its output's values at secret positions (None: not the first
    call's shapes, which fails its check), drawn after the call returned and kept in host
    memory; the positions are drawn again for its check from their secret seed (`drawn`, host
    memory too). Nothing the re-checks trust stays in device memory, where a later call's
    kernel could read or overwrite it (red-team pass 43: positions drawn once and kept on the
    device told a kernel where to be honest). On a row-separable task the positions lie in the
    call's own rows (the secret ones, shifted for this call)."""
    label: str
    used: object  # the call's round, or the copy of its inputs
    values: list | None
    always: bool = False
    drawn: int | None = None  # the secret seed its positions were drawn from
    shift: int | None = None  # a row-separable task's secret rows are shifted by this for it
    extra: bool = False  # a round on extra inputs (EXTRA_SHARE): always re-checked
    kind: int | None = None  # which extra kind (an index into the sampler's extras)
    cancelling: bool = False
    call: int = 0  # which call (1 = the first observed)


class TimedOutputSampler:
    """Fresh inputs per timed call, every output fingerprinted, the re-checks drawn afterwards."""

    def __init__(self, get_inputs, inputs: list, device: torch.device, seed: int,
                 replayable: bool | None = None, perturbing: bool = False,
                 spiked: str | None = None, row_inputs: list | None = None,
                 extras: list | None = None):
        self.get_inputs, self.inputs, self.device = get_inputs, inputs, device
        # Row-separable task (`separable_rows`): which inputs a sampled check slices by row, and
        # how many rows each call's fingerprint takes (decided at the first call).
        self.row_inputs, self.row_count = row_inputs, None
        # the secret rows (drawn once, on the host: a list and a tensor), before a call's shift
        self.base_host, self.base_rows = None, None
        # round r's inputs come from derived_seed(seed, r), the made-once ones from round 0's:
        # no round's seed tells another's (red-team pass 57); the caller's `seed` is secret
        self.seed, self.origin_seed = seed, derived_seed(seed, 0)
        # Spiked tasks (inputs.SPIKED_FAMILIES; `spiked` is the task id): every call's inputs
        # carry spikes, their heights measured once; perturbing, they move with every round
        # (fixed spikes could be memoised).
        self.spiked, self.heights = spiked, None
        self.round = 0  # refreshes so far: the inputs now are those of round `round`
        self.calls = 0  # calls observed
        # A generator that draws from anything but torch's seeded RNG cannot be replayed: then
        # each call's inputs are copied as they are made. Replayed inputs are made only after the
        # calls, where a kernel writing out of bounds cannot have reached them. The caller may
        # know it already (the task's profile).
        self.replayable = (is_replayable(get_inputs, device, self.seed)
                           if replayable is None else replayable)
        self.current = None  # the copy of this call's inputs, when not replayable
        # Spoiled positions: drawn from a secret seed (host-side state). Each fingerprint's
        # positions come from a secret seed of their own (`_Print.drawn`), seeding `print_gen`:
        # saving a generator's state (get_state) left it in a freed heap buffer, which on the
        # cpu evaluator a kernel's torch.empty could be handed, and the state names every later
        # call's positions (red-team pass 58, seen in part).
        self.gen = torch.Generator(device=device).manual_seed(secrets.randbits(62))
        self.print_gen = torch.Generator(device=device)
        # Perturbing: the inputs are made once (copied too when not replayable) and changed
        # before every call at positions drawn from a secret key. The re-checked calls' inputs
        # are derived from one trusted copy made afterwards (`work`), a round at a time.
        self.perturbing, self.saved, self.undo = False, None, []
        self.work, self.work_undo = None, []
        if perturbing:
            self.inputs[:] = generate(get_inputs, device, self.origin_seed)
            self.perturbing = perturbation.perturbable(self.inputs)
            self.key = secrets.randbits(62)
            self.saved = None if self.replayable else clone_inputs(self.inputs)
        self.rng = secrets.SystemRandom()
        # (label, inputs_from(get_inputs, device, seed), cancelling) per extra input kind, and
        # which rounds got which (EXTRA_SHARE); none where perturbed inputs come from a generator
        # that cannot be replayed (a re-check could not make the round again)
        self.extras = [] if self.perturbing and not self.replayable else list(extras or [])
        self.extra_window = 1 + max(EXTRA_FIRST, len(self.extras))
        self.extra_rounds: dict[int, int] = {  # every kind once in the window, at secret rounds
            r: k for k, r in enumerate(self.rng.sample(range(2, self.extra_window + 1),
                                                       len(self.extras)))}
        # Fresh inputs move to a random place every call (GPU): see input_placement.py.
        self.placer = None if self.perturbing or device.type != "cuda" else InputPlacer(device)
        self.last = None  # (label, inputs used, output) of the last timed call
        self.last_print = None
        self.previous = None  # the last output observed: spoiled before the next call
        self.fingerprints: list[_Print] = []  # every fingerprint taken, in call order
        self.reservoir: list[_Print] = []  # a uniform sample of the plain timed calls (RESERVOIR)
        self.plain = 0  # plain timed calls observed (neither extra rounds nor `always`)
        # How many timed calls there will be (timing.hooked_calls), where the caller knows: the
        # last is fingerprinted as it returns, in the reservoir or not.
        self.final: int | None = None
        self.shapes = None

    def refresh(self) -> None:
        """The next call's inputs, in place of the last ones (the same list object)."""
        self.round += 1
        # A kernel could keep its last output and rewrite only what changed (the same input
        # object every call, perturbing), or nothing at all (a task whose outputs barely depend
        # on its own inputs: one kept output passed every check): it gets spoiled first.
        if self.previous is not None:
            _spoil(self.previous, self.inputs, self.gen)
        if self.round == self.extra_window + 1 and self.final:
            self._schedule_later_rounds()
        if (self.extras and self.round > self.extra_window and self.round not in self.extra_rounds
                and not self.rng.randrange(EXTRA_SHARE)):
            self.extra_rounds[self.round] = self.rng.randrange(len(self.extras))
        if self.perturbing:
            if self.round in self.extra_rounds:
                pass  # written over whole: nothing of the last round's change is left
            elif self.undo is _REMADE:  # an extra round's values: the task's inputs made again
                _write_over(self.inputs, generate(self.get_inputs, self.device, self.origin_seed))
            else:
                perturbation.restore(self.undo)
            self.undo = self._perturbed(self.inputs, self.round)
            return
        self.inputs.clear()  # the last inputs go before the next exist
        self.inputs.extend(self._generated(self.round))
        if not self.replayable:
            self.current = clone_inputs(self.inputs)
        if self.placer is not None:
            self.placer.place(self.inputs)

    def _schedule_later_rounds(self) -> None:
        """Every kind once more at a secret round after the window, among the `final` calls'
        (drawn now, before the first such round; the rest of the later rounds still draw theirs
        as they come)."""
        later = range(self.extra_window + 1, self.final + 1)
        for k, r in enumerate(self.rng.sample(later, min(len(self.extras), len(later)))):
            self.extra_rounds[r] = k

    def observe(self, out, label: str | None = None, always: bool = False) -> None:
        """After each call (its output already checked to be plain tensors): fingerprint it before
        the previous output is released (releasing an object runs whatever the submission may
        have attached to it). `always`: a call after the timed ones (kernel provenance's
        recorded calls), re-checked by `always_checks`, every one of them."""
        self.calls += 1
        used = self.round if self.replayable or self.perturbing else self.current
        extra = self.extras[self.extra_rounds[self.round]] if self.round in self.extra_rounds else None
        label = (label or f"timed call #{self.calls}") + (f" on {extra[0]}" if extra else "")
        fingerprint = None
        joins = not (always or extra) and self._joins_reservoir()
        if always or extra or joins or self.calls == self.final:
            anywhere = extra is not None and getattr(extra[1], "few_samples", False)
            fingerprint = self._fingerprint(out, f"{label} (sampled positions)", used, always,
                                            anywhere)
            fingerprint.extra, fingerprint.cancelling = extra is not None, bool(extra and extra[2])
            fingerprint.kind = self.extra_rounds[self.round] if extra else None
            self.fingerprints.append(fingerprint)
            if joins:
                self._keep(fingerprint)
        self.previous = out
        if not always:  # the last call's fingerprint is taken in checks() if not taken here
            self.last, self.last_print = (label, used, out), fingerprint

    def _joins_reservoir(self) -> bool:
        """Whether this plain call joins the reservoir: the first RESERVOIR do, the i-th with
        probability RESERVOIR / i."""
        self.plain += 1
        return self.plain <= RESERVOIR or self.rng.randrange(self.plain) < RESERVOIR

    def _keep(self, fingerprint: _Print) -> None:
        if len(self.reservoir) < RESERVOIR:
            self.reservoir.append(fingerprint)
        else:
            self.reservoir[self.rng.randrange(RESERVOIR)] = fingerprint

    def _fingerprint(self, out, label: str, used, always: bool, anywhere: bool = False) -> _Print:
        """The output's values at secret positions, drawn now (the call has returned): anywhere,
        or on a row-separable task (unless `anywhere`) in its secret rows shifted by a secret
        number of rows."""
        outs = output_items(out)
        if outs is not None and self.shapes is None:
            self.shapes = [o.shape for o in outs]
            self.row_count = self._row_count(outs)
            if self.row_count is not None:
                self._stratified_rows()
        if outs is None or [o.shape for o in outs] != self.shapes:
            return _Print(label, used, None, always, call=self.calls)
        shift = None if self.row_count is None or anywhere else self.rng.randrange(self.shapes[0][0])
        drawn = secrets.randbits(62)
        positions, _ = self._positions_of(self.rows(shift), self.print_gen.manual_seed(drawn))
        values = [gather(o, idx).cpu() for o, idx in zip(outs, positions)]
        return _Print(label, used, values, always, drawn, shift, call=self.calls)

    def rows(self, shift: int | None) -> torch.Tensor | None:
        """The secret rows shifted by `shift` (cyclically: every row as likely to be drawn), on
        the host, in batch order: the rows that wrapped past the batch's end come first, as the
        profile's row sets were ordered (triu of a product of upper-triangular matrices agrees
        row by row only in order: KernelBench level 1 task 14). None: not a row-separable task."""
        if shift is None:
            return None
        count = self.shapes[0][0]
        wrapped = self.row_count - bisect.bisect_left(self.base_host, count - shift)
        return self.base_rows.add(shift).remainder_(count).roll(wrapped)

    def _positions_of(self, rows, gen: torch.Generator) -> tuple[list, list | None]:
        """Per output, FINGERPRINTED positions into its elements, and on a row-separable task
        their indices into the given rows' stacked elements too; drawn from `gen` (whose state
        before a print's drawing gives that print's positions again)."""
        with secret_allocations(self.device):  # (secret_memory.py)
            if rows is None:
                return [_positions_in(shape, FINGERPRINTED, gen, self.device) for shape in self.shapes], None
            on_device = rows.to(self.device)
            layouts = [_row_layout(shape, on_device, FINGERPRINTED, gen, self.device) for shape in self.shapes]
            return [positions for positions, _ in layouts], [within for _, within in layouts]

    def _redrawn(self, p: _Print) -> tuple[list, list | None]:
        return self._positions_of(self.rows(p.shift), self.print_gen.manual_seed(p.drawn))

    def _stratified_rows(self) -> None:
        """row_count distinct rows in increasing order, one in each of as many equal stretches
        of the batch (a kernel skipping some rows meets them as often as its skipping covers the
        batch); drawn on the host (`base_host`), where no kernel can read them."""
        stretch = self.shapes[0][0] // self.row_count
        self.base_host = [i * stretch + self.rng.randrange(stretch) for i in range(self.row_count)]
        self.base_rows = torch.tensor(self.base_host)  # on the host too

    def checks(self):
        """The re-checks of the timed calls, one input set at a time (a set may be rewritten in
        place for the next: use it before asking for the next): first the argument list is shown
        to still hold the last call's inputs (forward may not write them), then the last timed
        call is checked in full and at its positions, every extra round at its positions, and
        CHECKED_CALLS plain calls drawn at random among the others (from the reservoir)."""
        if self.last is None:
            return
        label, used, out = self.last
        last = self.last_print
        if last is None:  # the count of calls was not known (`final`): fingerprinted now
            last = self._fingerprint(out, f"{label} (sampled positions)", used, False)
            self.fingerprints.append(last)
        inputs = self._inputs_of(used)
        check_inputs_unchanged(self.inputs, inputs, "timed calls")
        yield TimedCheck(f"the last timed call ({label})", _key(used), inputs, out,
                         cancelling=last.cancelling)
        yield TimedCheck(last.label, _key(used), inputs, _on(last.values, self.device),
                         self._redrawn(last)[0] if last.values is not None else None, self.shapes,
                         last.cancelling)
        # checked: the output may go, spoiled as before any call, so that the next calls (kernel
        # provenance's recorded ones) find their previous output as every timed call did (an
        # unspoiled one told them apart: red-team pass 43)
        if self.previous is not None:
            _spoil(self.previous, self.inputs, self.gen)
        del inputs, out
        self.last = self.previous = None
        yield from self._extra_checks([p for p in self.fingerprints if p.extra and p is not last])
        pool = [p for p in self.reservoir if p is not last]
        for _ in range(min(CHECKED_CALLS, len(pool))):
            yield self._at_positions(pool.pop(self.rng.randrange(len(pool))))

    def _extra_checks(self, prints: list):
        """The extra rounds' checks at their positions. The rounds of a kind whose inputs are the
        same whatever the seed (zeros, a constant: `same_for_every_seed`) come after the
        others, one after another, on one input set made once: fingerprinted anywhere, one
        reference output serves them all (full-size Frobenius: ~4 of its ~12 extra rounds, a
        forward of 7 ms and a 7.5 GiB fill each); in rows, each takes its rows of that set (a
        row-separable task's reference on a slice is cheap, the fill of 6 GiB was not)."""
        groups: dict[int, list] = {}
        for p in prints:
            if p.kind is not None and p.values is not None and isinstance(p.used, int):
                groups.setdefault(p.kind, []).append(p)
        shared = {k: group for k, group in groups.items() if len(group) > 1 and same_for_every_seed(
            self.extras[k][1], self.get_inputs, [self._seed_of(p.used) for p in group])}
        grouped = {id(p) for group in shared.values() for p in group}
        for p in prints:
            if id(p) not in grouped:
                yield self._at_positions(p)
        for kind, group in shared.items():
            inputs = self._inputs_of(group[0].used)
            for p in sorted(group, key=lambda p: p.shift is not None):  # the whole-output ones first
                yield self._at_positions(p, inputs, ("same for every seed", kind))
            del inputs

    def always_checks(self):
        """The re-checks of the calls observed with `always` (after `checks`): the argument list
        still holds the last one's inputs, and each is checked at its positions."""
        prints = [p for p in self.fingerprints if p.always]
        if not prints:
            return
        inputs = self._inputs_of(prints[-1].used)
        check_inputs_unchanged(self.inputs, inputs, "recorded calls")
        del inputs
        for fingerprint in prints:
            yield self._at_positions(fingerprint)

    def _at_positions(self, p: _Print, inputs: list | None = None, key: tuple | None = None) -> TimedCheck:
        """A call's check at its positions: against the reference on its inputs, or on its rows
        of them. `inputs`, `key`: the call's inputs made already, and their identity."""
        values = _on(p.values, self.device)
        key = key or _key(p.used)
        if p.values is None:
            return TimedCheck(p.label, key, self._inputs_of(p.used), None, None, self.shapes,
                              p.cancelling)
        positions, within = self._redrawn(p)
        inputs = self._inputs_of(p.used) if inputs is None else inputs
        if p.shift is None:
            return TimedCheck(p.label, key, inputs, values, positions, self.shapes, p.cancelling)
        rows = self.rows(p.shift).to(self.device)
        inputs = [x.index_select(0, rows) if i in self.row_inputs else x
                  for i, x in enumerate(inputs)]
        return TimedCheck(p.label, ("rows", id(p)) + key, inputs, values, within,
                          [(len(rows),) + tuple(shape[1:]) for shape in self.shapes], p.cancelling)

    def _row_count(self, outs: list) -> int | None:
        """Rows per fingerprint on a row-separable task whose outputs all have the sliced inputs'
        rows, of a batch of at least 2 * ROW_MIN; else None (positions anywhere)."""
        if not self.row_inputs:
            return None
        count = self.inputs[self.row_inputs[0]].shape[0]
        if any(o.dim() == 0 or o.shape[0] != count or o.numel() == 0 for o in outs):
            return None
        return rows_per_call(count)

    def _inputs_of(self, used) -> list:
        """The inputs of round `used` made again (or the copy made for it). Perturbing, they are
        the trusted copy changed to that round in place (a few launches, no 6 GiB generation)."""
        if not isinstance(used, int):
            return used
        if not self.perturbing:
            return self._generated(used)
        if used in self.extra_rounds:  # made whole; its call saw the tensors written over the
            # buffers and the made-once inputs' other arguments (a seed-dependent scalar)
            return [m if torch.is_tensor(m) else x
                    for m, x in zip(self._generated(used), self.inputs)]
        if self.work is None:
            self.work = (generate(self.get_inputs, self.device, self.origin_seed)
                         if self.replayable else clone_inputs(self.saved))
        perturbation.restore(self.work_undo)
        self.work_undo = self._perturbed(self.work, used)
        return self.work

    def _perturbed(self, inputs: list, round_: int) -> list | object:
        """Round `round_`'s change to the made-once inputs (and its spikes); returns its undo.
        An extra round's inputs are written over them whole (the same buffers: a kernel cannot
        tell the round by address); undone by making the task's inputs again (replayable:
        extras are off otherwise), which holds no copy of the inputs meanwhile (full-size
        Frobenius: 7.5 GiB, beside the call's own output and its predecessor's)."""
        if round_ in self.extra_rounds:
            _write_over(inputs, self._extra_inputs(round_, into=inputs))
            return _REMADE
        undo = perturbation.perturb(inputs, self.key, round_)
        if self.spiked:
            self.heights = add_spikes(inputs, derived_seed(self.key, round_),
                                      self.spiked, self.heights, undo)
        return undo

    def _generated(self, round_: int) -> list:
        if round_ in self.extra_rounds:
            return self._extra_inputs(round_)
        return self._made(self._seed_of(round_))

    def _seed_of(self, round_: int) -> int:
        return derived_seed(self.seed, round_)

    def _extra_inputs(self, round_: int, into: list | None = None) -> list:
        """An extra round's inputs, made as its correctness trial's are, from the round's seed
        (filling `into`'s tensors in place where the maker can: inputs.py's `_extra_inputs`)."""
        _, inputs_from, _ = self.extras[self.extra_rounds[round_]]
        return inputs_from(self.get_inputs, self.device, self._seed_of(round_), into=into)

    def _made(self, seed: int) -> list:
        inputs = generate(self.get_inputs, self.device, seed)
        if self.spiked:
            self.heights = add_spikes(inputs, seed, self.spiked, self.heights)
        return inputs


_REMADE = object()  # the undo of an extra round written over perturbed inputs: make them again


def _write_over(inputs: list, made: list) -> None:
    """Write `made` (inputs of the same shapes) over the inputs in place, one at a time (each
    made tensor may go once written)."""
    for k, x in enumerate(inputs):
        if torch.is_tensor(x) and made[k] is not x:  # (filled in place already)
            x.copy_(made[k])
        made[k] = None


def _key(used) -> tuple:
    """The identity of a call's inputs: its round, or the copy made for it."""
    return ("round", used) if isinstance(used, int) else ("copy", id(used))


def _positions(t: torch.Tensor, count: int, gen: torch.Generator) -> torch.Tensor | None:
    """`count` positions (with repeats) in t, as indices into its elements in logical order
    (torch.take reads them whatever the strides, in one launch); None for a tensor without
    elements."""
    return _positions_in(t.shape, count, gen, t.device)


def _positions_in(shape, count: int, gen: torch.Generator, device) -> torch.Tensor | None:
    numel = math.prod(shape)
    if numel == 0:
        return None
    return torch.randint(0, numel, (count,), generator=gen, device=device)


def _on(values: list | None, device: torch.device) -> list | None:
    """A print's values, kept on the host, back on the device for their check."""
    return None if values is None else [v.to(device) for v in values]


def _random_rows(count: int, chosen: int, gen: torch.Generator,
                 device: torch.device) -> torch.Tensor:
    """`chosen` distinct rows of `count`, in increasing order."""
    return torch.randperm(count, generator=gen, device=device)[:chosen].sort().values


def _row_layout(shape, rows: torch.Tensor, count: int, gen: torch.Generator, device):
    """`count` positions (with repeats) in the given rows of a tensor of `shape`: (their indices
    into its elements in logical order, as torch.take reads them; their indices into the rows'
    stacked elements, in the order of `rows`)."""
    per_row = math.prod(shape) // shape[0]
    within = torch.randint(0, len(rows) * per_row, (count,), generator=gen, device=device)
    return rows.index_select(0, within // per_row) * per_row + within % per_row, within


def separable_rows(model, inputs: list, atol: float, rtol: float, gen: torch.Generator | None = None,
                   min_batch: int = 2 * ROW_MIN) -> list | None:
    """Which inputs a sampled check may slice by row (dim 0): the first tensor input alone, else
    every tensor input with its rows, when the reference's outputs all have those rows and, for
    three sets of rows drawn at random, computing on the sliced inputs gives those rows of the
    output within a tenth of the strictest tolerance (trusted code only, once per task: the
    profile). None where neither holds (reductions over the batch, batch statistics, a global
    norm), where the batch is too small for the sampler to slice (under 2 * ROW_MIN), or
    where anything fails."""
    try:
        tensors = [i for i, x in enumerate(inputs) if torch.is_tensor(x) and x.dim() >= 1]
        if not tensors or inputs[tensors[0]].shape[0] < min_batch:
            return None
        count = inputs[tensors[0]].shape[0]
        full = output_items(model(*inputs))
        if not full or any(o.dim() == 0 or o.shape[0] != count or o.numel() == 0
                           or o.device != full[0].device for o in full):
            return None
        gen = gen or torch.Generator(device=full[0].device).manual_seed(secrets.randbits(62))
        every = [i for i in tensors if inputs[i].shape[0] == count]
        for sliced in ([tensors[0]], every) if every != [tensors[0]] else ([tensors[0]],):
            if _rows_agree(model, inputs, full, sliced, atol, rtol, gen):
                return sliced
    except Exception:  # noqa: BLE001 - the optimisation is off, the checks stay whole
        return None
    return None


def _rows_agree(model, inputs: list, full: list, sliced: list, atol: float, rtol: float,
                gen: torch.Generator) -> bool:
    for _ in range(3):
        count = full[0].shape[0]
        # as many as a call's fingerprint takes; under 2 * ROW_MIN half the batch (the whole
        # batch agrees always)
        chosen = rows_per_call(count) or max(1, count // 2)
        rows = _random_rows(count, chosen, gen, full[0].device)
        part = [x.index_select(0, rows.to(x.device)) if i in sliced else x
                for i, x in enumerate(inputs)]
        try:
            outs = output_items(model(*part))
        except Exception:  # noqa: BLE001 - the sliced inputs do not fit the task: not separable
            return False
        if outs is None or len(outs) != len(full) or not all(
                _close(o, f.index_select(0, rows), atol, rtol) for o, f in zip(outs, full)):
            return False
    return True


def _close(a: torch.Tensor, b: torch.Tensor, atol: float, rtol: float) -> bool:
    """Within a tenth of the strictest tolerance a check can apply (`tolerances`: a normalised
    task's atol shrinks with the output's peak): a full-size Frobenius norm's outputs are ~4e-5,
    so rows normalised on their own, 6x too large, were within a tenth of the plain atol."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not (a.is_floating_point() or a.is_complex()):
        return torch.equal(a, b)
    peak = float(b.abs().max()) if b.numel() else 0.0
    return torch.allclose(a, b, atol=min(atol, peak * NORMALIZED_ATOL_SCALE) / 10, rtol=rtol / 10,
                          equal_nan=True)


def gather(t: torch.Tensor, positions) -> torch.Tensor:
    """A copy of t's values at `positions` (none of an empty tensor)."""
    if positions is None:
        return t.reshape(-1).clone()
    return torch.take(t, positions)


def _spoil(out, inputs: list, gen: torch.Generator) -> None:
    """NaN (floating outputs) or the type's least value (integer outputs: no index is negative)
    at POISONED secret positions of each output tensor that shares no memory with an input
    (spoiling a view of an input would write the input)."""
    for o in output_items(out) or []:
        if o.dtype == torch.bool or o.is_complex():
            continue
        bad = float("nan") if o.is_floating_point() else torch.iinfo(o.dtype).min
        if not o.numel() or shares_memory(o, inputs):
            continue
        # an output made under torch.inference_mode may be written in place only there; the
        # positions, freed, would tell the next call what to mend (secret_memory.py)
        with torch.inference_mode(o.is_inference()), secret_allocations(o.device):
            if o.is_contiguous():  # the common case in two launches: a few-µs kernel's
                o.view(-1).index_fill_(0, _positions(o, POISONED, gen), bad)  # ~90 a step
            else:
                memory = torch.empty(0, dtype=o.dtype, device=o.device).set_(o.untyped_storage())
                memory.index_fill_(0, _storage_offsets(o, _positions(o, POISONED, gen)), bad)


def _storage_offsets(t: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """Where elements (indices in logical order) live in t's storage, whatever its strides: an
    expanded output (stride 0) shares memory between elements, which `put_` refuses to write."""
    offsets = torch.full_like(positions, t.storage_offset())
    for size, stride in zip(reversed(t.shape), reversed(t.stride())):
        offsets += positions % size * stride
        positions = positions // size
    return offsets


def perturbs(nbytes: int, generation_ms: float, ref_runtime_ms: float, perturbable: bool,
             visible) -> bool:
    """Whether timed calls perturb made-once inputs instead of generating them afresh: only for
    inputs of at least PERTURB_MIN_BYTES (smaller ones are regenerated: cheap in absolute terms,
    and the choice stays the same from run to run) whose generation costs more than
    REGENERATE_MAX_SHARE of the reference's runtime, when every input can be perturbed and
    `visible()` (one round changes the reference's output beyond tolerance)."""
    if nbytes < PERTURB_MIN_BYTES or not ref_runtime_ms:
        return False
    if generation_ms <= REGENERATE_MAX_SHARE * ref_runtime_ms:
        return False
    return perturbable and bool(visible())


def input_bytes(inputs: list) -> int:
    return sum(x.numel() * x.element_size() for x in inputs if torch.is_tensor(x))
