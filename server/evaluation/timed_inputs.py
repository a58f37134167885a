"""Inputs and output samples of the timed calls: what keeps a timed call honest.

Small inputs are regenerated in place before every call, so memoising by pointer or by content
returns stale results; one timed call, chosen uniformly at random from an unobservable source, and
the last one are kept and checked against the reference afterwards.
"""

from __future__ import annotations

import secrets

import torch

from .correctness import check_inputs_unchanged, clone_inputs
from .inputs import generate

class TimedOutputSampler:
    """Fresh inputs per timed call (when small) and a uniformly random timed call's output kept
    for checking (reservoir sampling with an unobservable random source)."""

    REFRESH_MAX_BYTES = 64 << 20  # above this, regenerating per call costs more than it saves;
    # large memory-bound tasks are held by the roofline floor instead

    def __init__(self, get_inputs, inputs: list, device: torch.device, seed: int):
        self.get_inputs, self.inputs, self.device = get_inputs, inputs, device
        nbytes = sum(x.numel() * x.element_size() for x in inputs if torch.is_tensor(x))
        self.refreshing = nbytes <= self.REFRESH_MAX_BYTES
        self.saved = clone_inputs(inputs)
        self.seed, self.calls = seed + 1, 0
        self.rng = secrets.SystemRandom()
        self.kept = None
        self.last = None

    def refresh(self) -> None:
        if self.refreshing:
            fresh = generate(self.get_inputs, self.device, self.seed + self.calls)
            for x, f in zip(self.inputs, fresh):
                if torch.is_tensor(x):
                    x.copy_(f)
            self.saved = clone_inputs(self.inputs)

    def observe(self, out) -> None:
        self.calls += 1
        if self.refreshing:  # large inputs are compared once, at the end (a pass over memory)
            check_inputs_unchanged(self.inputs, self.saved, f"timed call #{self.calls}")
        if self.rng.random() * self.calls < 1.0:  # keeps call k with probability 1/k
            self.kept = (f"timed call #{self.calls}", self.saved if self.refreshing else self.inputs,
                         _detached_copy(out))
        self.last = (f"last timed call (#{self.calls})", self.saved, out)

    def samples(self):
        check_inputs_unchanged(self.inputs, self.saved, "timed calls")
        return [s for s in (self.kept, self.last) if s is not None]


def _detached_copy(out):
    if torch.is_tensor(out) and type(out) is torch.Tensor:
        return out.clone()
    if isinstance(out, (tuple, list)):
        return type(out)(_detached_copy(o) for o in out)
    return out  # not a plain tensor: the check reports it
