"""Seeds of a series (server/evaluation/seeds.py): none tells another's (red-team pass 57)."""

from __future__ import annotations

import math

import torch

from server.evaluation.inputs import EXTRA_SEED, correctness_trials, generate
from server.evaluation.seeds import derived_seed
from server.evaluation.timed_inputs import TimedOutputSampler

CPU = torch.device("cpu")


def make():
    return [torch.rand(8, 16)]


def test_derived_seeds_are_62_bit_repeatable_and_unrelated_to_each_other():
    """The CPU's MT19937 takes a seed's low 32 bits, which a kernel can read back from a draw:
    those of consecutive seeds must not differ by anything it could learn from two of them."""
    seeds = [derived_seed(123456789, k) for k in range(200)]
    assert seeds == [derived_seed(123456789, k) for k in range(200)]
    assert len(set(seeds)) == 200 and all(0 <= s < 1 << 62 for s in seeds)
    assert max(seeds) >= 1 << 60  # the whole range, not a small one a search could cover
    low = [s & 0xFFFFFFFF for s in seeds]
    assert len({(b - a) % (1 << 32) for a, b in zip(low, low[1:])}) == 199
    assert len({(b ^ a) for a, b in zip(low, low[1:])}) == 199
    assert derived_seed(1, 0) != derived_seed(2, 0)


def test_timed_rounds_and_trials_draw_from_hashed_seeds_not_consecutive_ones():
    """Round r's inputs are made from derived_seed(base, r), never base + r (the seed the
    pass-57 kernel predicted); the made-once inputs from round 0's; trial k's from (base, k)
    and extra trial j's from (base, EXTRA_SEED + j)."""
    base = 9
    sampler = TimedOutputSampler(make, make(), CPU, seed=base)
    seen = []
    for _ in range(6):
        sampler.refresh()
        seen.append(sampler.inputs[0].clone())
        sampler.observe(sampler.inputs[0] * 2)
    for r, x in enumerate(seen, start=1):
        assert torch.equal(x, generate(make, CPU, derived_seed(base, r))[0])
        assert not any(torch.equal(x, generate(make, CPU, base + k)[0]) for k in range(-1, 10))
    assert sampler.origin_seed == derived_seed(base, 0)
    trials = list(correctness_trials(make, CPU, base, 3, "level1/19_ReLU"))
    for k in range(3):
        assert torch.equal(trials[k].inputs[0], generate(make, CPU, derived_seed(base, k))[0])
    signed = trials[3].inputs[0]  # [-100, 100] from extra trial 0's seed
    torch.manual_seed(derived_seed(base, EXTRA_SEED))
    assert torch.equal(signed, torch.empty(8, 16).uniform_(-math.asinh(100), math.asinh(100)).sinh_())
