"""The timed calls' inputs and output samples (server/evaluation/timed_inputs.py), call by call."""

from __future__ import annotations

import random

import pytest
import torch

from server.evaluation.stages import StageFailure
from server.evaluation.inputs import generate
from server.evaluation.timed_inputs import REFRESH_MAX_BYTES, TimedOutputSampler, refreshes

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


@pytest.mark.parametrize("get_inputs, replayable", [(seeded_inputs, True), (unseeded_inputs, False)])
def test_every_call_gets_fresh_inputs_and_samples_pair_each_output_with_its_inputs(get_inputs, replayable):
    inputs = get_inputs()
    sampler = TimedOutputSampler(get_inputs, inputs, CPU, seed=5)
    assert sampler.replayable is replayable
    seen = []
    run_calls(sampler, lambda x: seen.append(x.clone()) or x * 2, 30)
    assert all(not torch.equal(a, b) for a, b in zip(seen, seen[1:]))  # fresh every call
    samples = sampler.samples()
    assert len(samples) == 2 and samples[-1][0] == "last timed call (#30)"
    for _, used, out in samples:
        assert torch.equal(out, used[0] * 2)
    assert torch.equal(samples[-1][1][0], seen[-1])


def test_an_output_memoised_by_pointer_is_stale_in_the_samples():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1)
    memo = {}
    run_calls(sampler, lambda x: memo.setdefault(x.data_ptr(), x * 2), 10)
    label, used, out = sampler.samples()[-1]
    assert not torch.equal(out, used[0] * 2)


def test_writing_into_the_inputs_shows_at_the_end():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1)
    run_calls(sampler, lambda x: x.mul_(2), 3)
    with pytest.raises(StageFailure) as failure:
        sampler.samples()
    assert failure.value.error_class == "input_mutated"


def big_inputs():
    return [torch.rand(64, 4096)]  # 262144 elements: more than one call perturbs


def test_large_inputs_are_perturbed_and_the_checks_replay_every_call_from_its_seed():
    inputs = generate(big_inputs, CPU, 1)  # as the pipeline makes them
    original = inputs[0].clone()
    sampler = TimedOutputSampler(big_inputs, inputs, CPU, seed=1, refreshing=False, planned_calls=6)
    assert sampler.replayable and sampler.saved is None  # no copy held during the calls
    seen = []
    run_calls(sampler, lambda x: seen.append(x.clone()) or x * 2, 6)
    changed = [int((a != b).sum()) for a, b in zip([original] + seen, seen)]
    assert all(0 < c <= 65536 for c in changed), changed  # a few hidden positions a call
    kept, last = sampler.samples()
    assert torch.equal(last[1][0], seen[-1]) and torch.equal(last[2], seen[-1] * 2)
    call = int(kept[0].split("#")[1])
    assert torch.equal(kept[1][0], seen[call - 1]) and torch.equal(kept[2], seen[call - 1] * 2)


def test_with_the_call_count_known_the_call_drawn_ahead_is_the_one_kept():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=3, planned_calls=40)
    assert 1 <= sampler.pick <= 40
    run_calls(sampler, lambda x: x * 2, 40)
    label, used, out = sampler.samples()[0]
    assert label == f"timed call #{sampler.pick}" and torch.equal(out, used[0] * 2)


def test_the_drawn_call_is_uniform():
    picks = [TimedOutputSampler(seeded_inputs, seeded_inputs(), CPU, seed=0, planned_calls=4).pick
             for _ in range(400)]
    assert set(picks) == {1, 2, 3, 4} and all(60 < picks.count(k) < 140 for k in range(1, 5))


def test_large_inputs_are_refreshed_when_generating_them_is_cheap_next_to_the_call():
    big = REFRESH_MAX_BYTES + 1
    assert refreshes(REFRESH_MAX_BYTES)  # small: always
    assert refreshes(big, generation_ms=0.06, ref_runtime_ms=2.7)  # a 4096² matmul's 128 MB
    assert not refreshes(big, generation_ms=3.0, ref_runtime_ms=3.0)  # a full-size ReLU's 6 GiB
    assert not refreshes(big)  # unmeasured (a profile cached before it was): as before


def test_a_pointer_memo_is_stale_whether_inputs_are_regenerated_or_perturbed():
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1, refreshing=True)
    memo = {}
    run_calls(sampler, lambda x: memo.setdefault(x.data_ptr(), x * 2), 10)
    label, used, out = sampler.samples()[-1]
    assert not torch.equal(out, used[0] * 2)
    perturbed = TimedOutputSampler(big_inputs, generate(big_inputs, CPU, 1), CPU, seed=1,
                                   refreshing=False)
    memo.clear()
    run_calls(perturbed, lambda x: memo.setdefault(x.data_ptr(), x * 2), 10)
    label, used, out = perturbed.samples()[-1]
    assert not torch.equal(out, used[0] * 2)  # stale at the perturbed positions
