"""The cpu evaluator's draws (cpu_draws.py): Philox keyed by the call's seed, not MT19937."""

from __future__ import annotations

import torch

from server.evaluation.inputs import generate

CPU = torch.device("cpu")

# Red-team pass 60's parities: for words y[m], y[m+396], y[m+623] of an MT19937 stream, the low
# 24 bits torch.rand keeps (v * 2**24) masked by (a, b, c) have an even number of ones together,
# whatever the seed (found by Gaussian elimination over sampled streams).
MT_PARITIES = [
    (0x400012, 0x1, 0x1), (0x4c019, 0xc, 0xc), (0x80022, 0x10, 0x10), (0x6240c1, 0x64, 0x64),
    (0x60859, 0x424, 0x424), (0x809020, 0x4800, 0x4800), (0x30040, 0x8020, 0x8020),
    (0x100044, 0x10020, 0x10020), (0x464048, 0x20024, 0x20024), (0x4a0050, 0x40020, 0x40020),
    (0x100004, 0x80002, 0x80002), (0x200008, 0x100004, 0x100004), (0x46c049, 0x200024, 0x200024),
    (0x880002, 0x400000, 0x400000), (0x920660, 0x800302, 0x800302),
]


def odd_parities(values: torch.Tensor) -> float:
    """The share of MT19937's parities that fail over the draw's windows (0 for a raw stream)."""
    words = (values.flatten().double() * 2 ** 24).long()
    a, b, c = words[:-623], words[396:-227], words[623:]
    failed = total = 0
    for ma, mb, mc in MT_PARITIES:
        mixed = (a & ma) ^ (b & mb) ^ (c & mc)
        ones = sum((mixed >> bit) & 1 for bit in range(24))
        failed += int((ones & 1).sum())
        total += ones.numel()
    return failed / total


def test_the_cpu_evaluators_draws_obey_none_of_mt19937s_parities():
    """Red-team pass 60 told a task's own draws from every trial built on them with these
    parities (torch.rand's stream obeys all of them): the cpu evaluator's obey them by chance
    only, so no cheap test tells a plain draw from a trial's inputs."""
    torch.manual_seed(158271)
    assert odd_parities(torch.rand(32, 256)) == 0.0  # the attack's premise
    drawn = generate(lambda: [torch.rand(32, 256)], CPU, 158271)[0]
    assert 0.45 < odd_parities(drawn) < 0.55


def test_the_cpu_evaluators_draws_follow_the_seed_and_keep_the_distributions():
    def get_inputs():
        return [torch.rand(256, 64), torch.randn(256, 64), torch.randint(3, 9, (4096,)),
                torch.empty(4096).uniform_(-2, 2), torch.rand_like(torch.ones(8, 8)),
                torch.tril(torch.rand(16, 16)), torch.rand(64, dtype=torch.float64),
                torch.rand(4, generator=torch.Generator().manual_seed(7)),
                torch.rand(size=(3, 2)), torch.randn(()), torch.randint(0, 10, (5,), dtype=torch.float32)]

    first, again, other = (generate(get_inputs, CPU, seed) for seed in (11, 11, 12))
    assert all(torch.equal(x, y) for x, y in zip(first, again))  # replays and re-checks
    assert not any(torch.equal(x, y) for x, y in zip(first[:7], other[:7]))
    uniform, normal, integers, spread, like, lower, doubles, own, keyword, scalar, floats = first
    assert keyword.shape == (3, 2) and scalar.shape == () and floats.dtype == torch.float32
    assert torch.equal(floats, floats.round()) and 0 <= float(floats.min()) and float(floats.max()) < 10
    assert 0 <= float(uniform.min()) and float(uniform.max()) < 1 and abs(float(uniform.mean()) - 0.5) < 0.01
    assert torch.equal(uniform * 2 ** 24, (uniform * 2 ** 24).floor())  # torch.rand's grid
    assert abs(float(normal.mean())) < 0.03 and abs(float(normal.std()) - 1) < 0.03
    assert set(integers.tolist()) == set(range(3, 9))
    assert -2 <= float(spread.min()) and float(spread.max()) < 2 and abs(float(spread.mean())) < 0.1
    assert like.shape == (8, 8) and torch.equal(lower, lower.tril()) and doubles.dtype == torch.float64
    assert torch.equal(own, torch.rand(4, generator=torch.Generator().manual_seed(7)))  # its own generator


def test_the_cpu_evaluators_draws_are_laid_out_and_stored_as_torchs_own():
    """A `_like` draw keeps its model's strides (or the format asked for), every draw owns a
    resizable torch storage, and half and bfloat16 draws lie on torch.rand's grids for them."""
    base = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last)

    def get_inputs():
        return [torch.rand_like(base), torch.randn_like(base, memory_format=torch.contiguous_format),
                torch.randint_like(base, 2, 7), torch.rand(64, 64), torch.randn(()),
                torch.rand(4096, dtype=torch.float16), torch.rand(4096, dtype=torch.bfloat16),
                torch.rand((), dtype=torch.float16), torch.randint_like(base.short(), 5)]

    uniform, normal, integers, plain, scalar, half, brain, half_scalar, shorts = generate(get_inputs, CPU, 5)
    assert uniform.stride() == base.stride() and integers.stride() == base.stride()
    assert normal.is_contiguous() and not normal.is_contiguous(memory_format=torch.channels_last)
    assert set(integers.flatten().tolist()) == set(range(2, 7)) and integers.dtype == base.dtype
    assert shorts.dtype == torch.int16 and set(shorts.flatten().tolist()) <= set(range(5))
    for made in (uniform, normal, plain, scalar, half):
        assert made.untyped_storage().resizable()
    plain.resize_(128, 128)  # a numpy-backed storage refuses this
    for values, bits in ((half, 11), (brain, 8), (half_scalar, 11)):
        wide = values.double() * 2 ** bits
        assert torch.equal(wide, wide.floor()) and 0 <= float(values.min()) and float(values.max()) < 1
    assert len(set(half.tolist())) > 1000 and len(set(brain.tolist())) > 200
