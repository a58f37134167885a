"""Inputs and output samples of the timed calls: what keeps a timed call honest.

Inputs are regenerated in place before every call, so memoising by pointer or by content
returns stale results, whenever that costs little: small inputs, or inputs generated in a
fraction of the reference's runtime (compute-bound tasks such as a 4096² matmul). Inputs of
memory-bound tasks at full size (6 GiB: generating them takes as long as the call) are made once
and perturbed before every call at 65536 hidden positions per tensor. One timed call, chosen uniformly at random
from an unobservable source, and the last one are kept and checked against the reference
afterwards. A kept call's inputs are generated again from its seed for that check (generation is
deterministic), so no call pays for a copy of its inputs.
"""

from __future__ import annotations

import secrets

import torch

from .correctness import check_inputs_unchanged, clone_inputs
from .inputs import generate
from .inputs import replayable as is_replayable

REFRESH_MAX_BYTES = 64 << 20  # inputs this small are always regenerated before every call
# Larger ones too when generating them takes at most this share of the reference's runtime: the
# refresh runs outside the timed interval, so it costs the timing stage's wall time only.
REFRESH_MAX_SHARE = 0.25


def input_bytes(inputs: list) -> int:
    return sum(x.numel() * x.element_size() for x in inputs if torch.is_tensor(x))


def refreshes(nbytes: int, generation_ms: float | None = None, ref_runtime_ms: float | None = None) -> bool:
    """Whether timed calls get fresh inputs each: always when small, else when generating them
    (measured in the trusted reference profile) is cheap next to the reference's runtime."""
    if nbytes <= REFRESH_MAX_BYTES:
        return True
    if generation_ms is None or not ref_runtime_ms:
        return False
    return generation_ms <= REFRESH_MAX_SHARE * ref_runtime_ms


PERTURBED_ELEMENTS = 1 << 16  # per tensor and call, when inputs are too large to regenerate
PERTURB_SEED_OFFSET = 1 << 24


class TimedOutputSampler:
    """Fresh inputs per timed call and a uniformly random timed call's output kept for checking
    (reservoir sampling with an unobservable random source). Inputs too large to regenerate
    before every call are perturbed instead: 65536 elements of each tensor, at positions drawn
    from the evaluation's hidden seed, take the values of 65536 others (the task's distribution
    stays). A cache keyed by pointer then returns stale values there, which the re-checked calls
    show; finding the changed positions means reading the whole input, what a memory-bound
    kernel costs anyway."""

    def __init__(self, get_inputs, inputs: list, device: torch.device, seed: int,
                 planned_calls: int | None = None, replayable: bool | None = None,
                 refreshing: bool | None = None):
        self.get_inputs, self.inputs, self.device = get_inputs, inputs, device
        self.refreshing = refreshes(input_bytes(inputs)) if refreshing is None else refreshing
        self.origin_seed, self.seed = seed, seed + 1
        self.round = 0  # refreshes so far: the inputs now are those of round `round`
        self.calls = 0  # calls observed
        # A generator that draws from anything but torch's seeded RNG cannot be replayed: then
        # inputs are copied instead, as they are made. Replayed inputs are made only after the
        # calls, where a kernel writing out of bounds cannot have reached them. The caller may
        # know it already (the task's profile).
        self.replayable = (is_replayable(get_inputs, device, self.seed if self.refreshing else seed)
                           if replayable is None else replayable)
        self.saved = None if self.refreshing or self.replayable else clone_inputs(inputs)
        self.current = None  # the copy of this call's inputs, when regenerated and not replayable
        self.rng = secrets.SystemRandom()
        # With the number of calls known ahead (a fixed trial count), the kept call is drawn now
        # and only its output is copied; else reservoir sampling copies ~ln(n) outputs.
        self.pick = 1 + secrets.randbelow(planned_calls) if planned_calls else None
        self.kept = None
        self.last = None

    def refresh(self) -> None:
        self.round += 1
        if not self.refreshing:
            _perturb(self.inputs, self.origin_seed + PERTURB_SEED_OFFSET + self.round)
            return
        for x, f in zip(self.inputs, self._generated(self.round)):
            if torch.is_tensor(x):
                x.copy_(f)
        if not self.replayable:
            self.current = clone_inputs(self.inputs)

    def observe(self, out) -> None:
        self.calls += 1
        used = self.current if self.refreshing and not self.replayable else self.round
        if self._keeps_this_call():
            self.kept = (f"timed call #{self.calls}", used, _detached_copy(out))
        self.last = (f"last timed call (#{self.calls})", used, out)

    def _keeps_this_call(self) -> bool:
        if self.pick is not None:
            return self.calls == self.pick
        return self.rng.random() * self.calls < 1.0  # keeps call k with probability 1/k

    def samples(self) -> list:
        """(label, the inputs that call saw, its output) for the kept and the last call; the
        input buffers must still hold the last call's inputs (forward may not write them)."""
        if self.last is None:
            return []
        last_inputs = self._inputs_of(self.last[1])
        check_inputs_unchanged(self.inputs, last_inputs, "timed calls")
        samples = [(self.last[0], last_inputs, self.last[2])]
        if self.kept is not None:
            label, used, out = self.kept
            same = used is self.last[1] or (isinstance(used, int) and used == self.last[1])
            samples.insert(0, (label, last_inputs if same else self._inputs_of(used), out))
        return samples

    def next_call_inputs(self) -> list:
        """What the call after `refresh()` sees, made afresh when replayable: for a check after a
        call outside the timed loop (kernel provenance)."""
        if self.refreshing and not self.replayable:
            return clone_inputs(self.inputs)
        return self._inputs_of(self.round)

    def _inputs_of(self, used) -> list:
        """The inputs of round `used` made again (or the copy made for it)."""
        if not isinstance(used, int):
            return used
        if self.refreshing:
            return self._generated(used)
        inputs = (generate(self.get_inputs, self.device, self.origin_seed) if self.replayable
                  else clone_inputs(self.saved))
        for r in range(1, used + 1):
            _perturb(inputs, self.origin_seed + PERTURB_SEED_OFFSET + r)
        return inputs

    def _generated(self, round_: int) -> list:
        return generate(self.get_inputs, self.device, self.seed + round_ - 1)


def _perturb(inputs: list, seed: int) -> None:
    """Copy PERTURBED_ELEMENTS values of each contiguous input tensor into as many other
    positions, both drawn from `seed`: the same seed, the same change (positions are made unique,
    so the scatter is deterministic)."""
    gen = None
    for x in inputs:
        if not (torch.is_tensor(x) and x.is_contiguous() and x.numel() > 1):
            continue
        if gen is None:
            gen = torch.Generator(device=x.device).manual_seed(seed)
        flat, n = x.view(-1), x.numel()
        count = min(PERTURBED_ELEMENTS, n)
        where = torch.unique(torch.randint(0, n, (count,), generator=gen, device=x.device))
        source = torch.randint(0, n, (where.numel(),), generator=gen, device=x.device)
        flat[where] = flat[source]  # the gather completes before the scatter


def _detached_copy(out):
    if torch.is_tensor(out) and type(out) is torch.Tensor:
        return out.clone()
    if isinstance(out, (tuple, list)):
        return type(out)(_detached_copy(o) for o in out)
    return out  # not a plain tensor: the check reports it
