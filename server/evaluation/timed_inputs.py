"""Inputs and output samples of the timed calls: what keeps a timed call honest.

Small inputs are regenerated in place before every call, so memoising by pointer or by content
returns stale results; one timed call, chosen uniformly at random from an unobservable source, and
the last one are kept and checked against the reference afterwards. A kept call's inputs are
generated again from its seed for that check (generation is deterministic), so no call pays for a
copy of its inputs; large inputs are never regenerated and one pristine copy serves.
"""

from __future__ import annotations

import secrets

import torch

from .correctness import check_inputs_unchanged, clone_inputs
from .inputs import generate
from .inputs import replayable as is_replayable

class TimedOutputSampler:
    """Fresh inputs per timed call (when small) and a uniformly random timed call's output kept
    for checking (reservoir sampling with an unobservable random source)."""

    REFRESH_MAX_BYTES = 64 << 20  # above this, regenerating per call costs more than it saves;
    # large memory-bound tasks are held by the roofline floor instead

    def __init__(self, get_inputs, inputs: list, device: torch.device, seed: int,
                 planned_calls: int | None = None, replayable: bool | None = None):
        self.get_inputs, self.inputs, self.device = get_inputs, inputs, device
        nbytes = sum(x.numel() * x.element_size() for x in inputs if torch.is_tensor(x))
        self.refreshing = nbytes <= self.REFRESH_MAX_BYTES
        self.origin_seed, self.seed, self.calls = seed, seed + 1, 0
        # A generator that draws from anything but torch's seeded RNG cannot be replayed: then
        # inputs are copied instead, as they are made. Replayed inputs are made only after the
        # calls, where a kernel writing out of bounds cannot have reached them. The caller may
        # know it already (the task's profile).
        self.replayable = (is_replayable(get_inputs, device, self.seed if self.refreshing else seed)
                           if replayable is None else replayable)
        self.saved = None if self.refreshing or self.replayable else clone_inputs(inputs)
        self.current = None  # the copy of this call's inputs, when not replayable
        self.rng = secrets.SystemRandom()
        # With the number of calls known ahead (a fixed trial count), the kept call is drawn now
        # and only its output is copied; else reservoir sampling copies ~ln(n) outputs.
        self.pick = 1 + secrets.randbelow(planned_calls) if planned_calls else None
        self.kept = None
        self.last = None

    def refresh(self) -> None:
        if self.refreshing:
            for x, f in zip(self.inputs, self._generated(self.calls + 1)):
                if torch.is_tensor(x):
                    x.copy_(f)
            if not self.replayable:
                self.current = clone_inputs(self.inputs)

    def observe(self, out) -> None:
        self.calls += 1
        used = self.calls if self.replayable else self.current
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
            # large inputs are the same for every call: made again once for both checks
            samples.insert(0, (label, self._inputs_of(used) if self.refreshing else last_inputs, out))
        return samples

    def next_call_inputs(self) -> list:
        """What the next call (after `refresh()`) sees, made afresh when replayable: for a check
        after a call outside the timed loop (kernel provenance)."""
        if not self.refreshing:
            return self._inputs_of(None)
        return self._generated(self.calls + 1) if self.replayable else clone_inputs(self.inputs)

    def _inputs_of(self, used) -> list:
        """The inputs a timed call saw: replayed from its number, or the copy made for it."""
        if not self.refreshing:
            return generate(self.get_inputs, self.device, self.origin_seed) if self.replayable else self.saved
        return self._generated(used) if isinstance(used, int) else used

    def _generated(self, call: int) -> list:
        return generate(self.get_inputs, self.device, self.seed + call - 1)


def _detached_copy(out):
    if torch.is_tensor(out) and type(out) is torch.Tensor:
        return out.clone()
    if isinstance(out, (tuple, list)):
        return type(out)(_detached_copy(o) for o in out)
    return out  # not a plain tensor: the check reports it
