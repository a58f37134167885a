"""The timed calls' inputs and output samples (server/evaluation/timed_inputs.py), call by call."""

from __future__ import annotations

import random

import pytest
import torch

from server.evaluation.stages import StageFailure
from server.evaluation.inputs import generate
from server.evaluation.timed_inputs import FINGERPRINTED, TimedOutputSampler

CPU = torch.device("cpu")


def seeded_inputs():
    return [torch.rand(8, 16)]


def unseeded_inputs():
    """Draws from Python's RNG, which torch.manual_seed does not replay."""
    return [torch.full((8, 16), random.random())]


def run_calls(sampler, forward, calls: int) -> None:
    for _ in range(calls):
        sampler.refresh()
        sampler.observe(forward(*sampler.inputs))


def full_checks(sampler) -> list:
    """(label, a copy of the inputs, output) of the checks in full (the last call's, the kept
    call's), taken as the pipeline takes them: one input set at a time."""
    return [(c.label, [x.clone() for x in c.inputs], c.output)
            for c in sampler.checks() if c.positions is None]


def position_checks(sampler) -> list:
    """(label, a copy of the inputs, fingerprint, positions, shapes) of the checks at positions."""
    return [(c.label, [x.clone() for x in c.inputs], c.output, c.positions, c.shapes)
            for c in sampler.checks() if c.positions is not None]


@pytest.mark.parametrize("get_inputs, replayable", [(seeded_inputs, True), (unseeded_inputs, False)])
def test_every_call_gets_fresh_inputs_and_samples_pair_each_output_with_its_inputs(get_inputs, replayable):
    inputs = get_inputs()
    sampler = TimedOutputSampler(get_inputs, inputs, CPU, seed=5)
    assert sampler.replayable is replayable
    seen = []
    run_calls(sampler, lambda x: seen.append(x.clone()) or x * 2, 30)
    assert all(not torch.equal(a, b) for a, b in zip(seen, seen[1:]))  # fresh every call
    samples = full_checks(sampler)
    assert len(samples) == 2 and samples[0][0] == "last timed call (#30)"
    for _, used, out in samples:
        assert torch.equal(out, used[0] * 2)
    assert torch.equal(samples[0][1][0], seen[-1])


def test_an_output_memoised_by_pointer_is_recomputed_or_stale_in_the_samples():
    """Fresh tensors each call: a pointer memo misses (and computes), or hits a reused address
    whose values are new (and is stale, which the check shows)."""
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1, planned_calls=40)
    memo, hits = {}, []

    def forward(x):
        hits.append(x.data_ptr() in memo)
        return memo.setdefault(x.data_ptr(), x * 2)

    run_calls(sampler, forward, 40)
    for label, used, out in full_checks(sampler):
        call = int(label.split("#")[1].rstrip(")"))
        assert torch.equal(out, used[0] * 2) is not hits[call - 1], label


def test_writing_into_the_inputs_shows_at_the_end():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1)
    run_calls(sampler, lambda x: x.mul_(2), 3)
    with pytest.raises(StageFailure) as failure:
        full_checks(sampler)
    assert failure.value.error_class == "input_mutated"


def lower_triangular_inputs():
    return [torch.tril(torch.rand(16, 16))]


def test_every_call_sees_its_own_inputs_with_the_tasks_structure_and_an_unrelated_seed():
    """Inputs are made by the task's generator each call (a triangular input stays triangular),
    swapped into the same argument list; torch's seed during a call is not the inputs' seed."""
    inputs = generate(lower_triangular_inputs, CPU, 1)
    sampler = TimedOutputSampler(lower_triangular_inputs, inputs, CPU, seed=1, planned_calls=6)
    seeds, seen = [], []

    def forward(x):
        seeds.append(torch.initial_seed())
        seen.append(x.clone())
        return x * 2

    run_calls(sampler, forward, 6)
    assert all(torch.equal(x, torch.tril(x)) for x in seen)
    assert all(not torch.equal(a, b) for a, b in zip(seen, seen[1:]))
    assert not set(seeds) & {sampler.seed + k for k in range(-2, 10)}
    last, kept = full_checks(sampler)
    assert torch.equal(last[1][0], seen[-1]) and sampler.inputs is inputs
    call = int(kept[0].split("#")[1])
    assert torch.equal(kept[1][0], seen[call - 1]) and torch.equal(kept[2], seen[call - 1] * 2)


def test_with_the_call_count_known_the_call_drawn_ahead_is_the_one_kept():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=3, planned_calls=40)
    assert 1 <= sampler.pick <= 40
    run_calls(sampler, lambda x: x * 2, 40)
    label, used, out = full_checks(sampler)[1]
    assert label == f"timed call #{sampler.pick}" and torch.equal(out, used[0] * 2)


def test_the_drawn_call_is_uniform():
    picks = [TimedOutputSampler(seeded_inputs, seeded_inputs(), CPU, seed=0, planned_calls=4).pick
             for _ in range(400)]
    assert set(picks) == {1, 2, 3, 4} and all(60 < picks.count(k) < 140 for k in range(1, 5))


def test_calls_not_checked_in_full_are_checked_at_secret_positions():
    """Dishonest on every call but the last: the kept call may be honest too, but four other
    calls, drawn afterwards, are compared with the reference at their fingerprint positions."""
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=2, planned_calls=12)
    calls = iter(range(1, 13))
    run_calls(sampler, lambda x: x * 2 if next(calls) == 12 else torch.zeros_like(x), 12)
    checked = position_checks(sampler)
    assert len(checked) == 5 and len({label for label, *_ in checked}) == 5
    assert checked[0][0].startswith("timed call #12 ")  # the last call, at its positions too
    kept = int(full_checks(sampler)[1][0].split("#")[1])
    for label, used, fingerprint, positions, shapes in checked[1:]:
        assert shapes == [torch.Size([8, 16])] and f"#{kept} " not in label
        assert not torch.allclose(fingerprint[0], torch.take(used[0] * 2, positions[0]))
    honest = TimedOutputSampler(seeded_inputs, [], CPU, seed=2, planned_calls=12)
    run_calls(honest, lambda x: x * 2, 12)
    for label, used, fingerprint, positions, shapes in position_checks(honest):
        assert torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0]))


def test_scalar_and_empty_outputs_are_fingerprinted_whole():
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=2, planned_calls=5)
    run_calls(sampler, lambda x: (x.sum(), x[:0]), 5)
    for label, used, fingerprint, positions, shapes in position_checks(sampler):
        assert torch.equal(fingerprint[0], used[0].sum().expand(FINGERPRINTED))
        assert fingerprint[1].numel() == 0 and positions[1] is None
