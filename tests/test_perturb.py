"""Per-call perturbation of inputs too large to generate afresh (server/evaluation/perturb.py),
and the profile's decision to use it (only where a perturbation shows in the output)."""

from __future__ import annotations

import pytest
import torch

from server.evaluation import perturb
from server.evaluation.inputs import generate
from server.evaluation.pipeline import _perturbation_visible
from server.evaluation.protocol import EvalRequest
from server.evaluation.timed_inputs import TimedOutputSampler, perturbs
from tests.conftest import ROOT

CPU = torch.device("cpu")


def big_inputs():
    return [torch.rand(64, 4096), torch.randint(0, 10, (128, 1024))]


def test_a_round_changes_a_bounded_set_of_positions_and_is_undone_exactly():
    inputs = generate(big_inputs, CPU, 0)
    original = [x.clone() for x in inputs]
    undo = perturb.perturb(inputs, key=12345, round_=1)
    assert all(w.unique().numel() == w.numel() == perturb.PERTURBED for _, w, _ in undo)
    for x, o in zip(inputs, original):
        assert 0 < int((x != o).sum()) <= perturb.PERTURBED
        assert set(x.unique().tolist()) <= set(o.unique().tolist())  # values of the task's own
    perturb.restore(undo)
    assert all(torch.equal(x, o) for x, o in zip(inputs, original))


def test_the_same_key_and_round_give_the_same_change_and_other_rounds_another():
    a, b, c = (generate(big_inputs, CPU, 0) for _ in range(3))
    perturb.perturb(a, key=7, round_=3)
    perturb.perturb(b, key=7, round_=3)
    perturb.perturb(c, key=7, round_=4)
    assert torch.equal(a[0], b[0]) and not torch.equal(a[0], c[0])


def test_only_flat_unaliased_inputs_are_perturbable():
    x = torch.rand(64, 64)
    assert perturb.perturbable([x, torch.rand(8)])
    assert not perturb.perturbable([x, x])  # the same memory twice
    assert not perturb.perturbable([x.t()])  # not contiguous
    assert not perturb.perturbable([3, torch.tensor(1.0)])  # nothing to perturb


def run_calls(sampler, forward, calls: int) -> None:
    for _ in range(calls):
        sampler.refresh()
        sampler.observe(forward(*sampler.inputs))


def test_perturbed_calls_are_replayed_exactly_and_a_pointer_memo_is_stale():
    inputs = []
    sampler = TimedOutputSampler(big_inputs, inputs, CPU, seed=1, perturbing=True)
    assert sampler.perturbing and inputs  # made once, by the sampler
    origin = [x.clone() for x in inputs]
    seen, seeds, memo = [], [], {}

    def forward(x, y):
        seen.append(x.clone())
        seeds.append(torch.initial_seed())
        return memo.setdefault(x.data_ptr(), x * 2)

    run_calls(sampler, forward, 8)
    for x in seen:  # each round changes the made-once input, not the round before's
        assert 0 < int((x != origin[0]).sum()) <= perturb.PERTURBED
    assert not set(seeds) & ({sampler.origin_seed} | {sampler._seed_of(r) for r in range(10)})
    checks = iter(sampler.checks())
    last = next(checks)
    assert torch.equal(last.inputs[0], seen[-1])
    assert not torch.equal(last.output, last.inputs[0] * 2)  # the memo's output is stale
    for check in checks:  # the rounds derived in place from one trusted copy, one at a time
        call = int(check.label.split("#")[1].split()[0].rstrip(")"))
        assert torch.equal(check.inputs[0], seen[call - 1]), check.label


def test_perturbation_is_chosen_only_where_generation_is_costly_and_the_change_shows():
    shows, hidden = (lambda: True), (lambda: False)
    big, small = 6 << 30, 1 << 20
    assert not perturbs(128 << 20, 0.06, 2.7, True, shows)  # a 4096² matmul: generating is cheap
    assert perturbs(big, 3.0, 3.0, True, shows)  # a full-size ReLU
    assert perturbs(big, 1.8, 7.0, True, shows)  # full-size Frobenius: two passes and a write
    assert not perturbs(big, 1.5, 15.0, True, shows)  # ten passes' work: regenerate
    assert not perturbs(big, 3.0, 3.0, True, hidden)  # a reduction: regenerate instead
    assert not perturbs(big, 3.0, 3.0, False, shows)  # inputs that cannot be perturbed
    assert not perturbs(small, 0.03, 0.004, True, shows)  # small: always regenerated


class RowSum(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


class Relu(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)


def test_the_profile_sees_whether_a_perturbation_shows_in_the_output(monkeypatch):
    monkeypatch.setattr(perturb, "PERTURBED", 4)  # as sparse as 65536 in a full-size input
    req = EvalRequest(code="", reference_source="")
    inputs = [torch.rand(16, 65536)]
    assert _perturbation_visible(req, Relu(), inputs)
    assert not _perturbation_visible(req, RowSum(), inputs)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_rounds_replay_exactly_on_the_gpu():
    """CUDA generators, unique and the scatter: the same key and round, the same change."""
    dev = torch.device("cuda:0")
    a = generate(big_inputs, dev, 0)
    original = [x.clone() for x in a]
    for r in range(1, 4):
        undo = perturb.perturb(a, key=99, round_=r)
        replay = [x.clone() for x in original]
        perturb.perturb(replay, key=99, round_=r)
        assert all(torch.equal(x, y) for x, y in zip(a, replay))
        perturb.restore(undo)
    assert all(torch.equal(x, o) for x, o in zip(a, original))


def test_a_kept_output_returned_again_is_spoiled_at_secret_positions():
    """Perturbing hands every call the same input object: a kernel that keeps its last output and
    rewrites only what changed returns an output spoiled (NaN) since its last return."""
    sampler = TimedOutputSampler(big_inputs, [], CPU, seed=1, perturbing=True)
    cache = []

    def forward(x, y):
        if not cache:
            cache.append(x * 2)
        return cache[0]

    run_calls(sampler, forward, 4)
    assert torch.isnan(sampler.last[2]).any()
    fresh = TimedOutputSampler(big_inputs, [], CPU, seed=1, perturbing=True)
    run_calls(fresh, lambda x, y: x * 2, 4)
    assert not torch.isnan(fresh.last[2]).any()  # a fresh output each call is never spoiled


def kept_layout(x, layout):
    if layout == "expanded":
        return (x[:1] * 2).contiguous().expand(x.shape)
    if layout == "transposed":
        return (x * 2).t().contiguous().t()
    if layout == "offset":  # a view into a larger buffer, past its start
        buf = torch.full((x.numel() + 100,), 7.0)
        return buf[100:].view(x.shape).copy_(x * 2)
    return (x * 2).sum()  # a 0-dim output


@pytest.mark.parametrize("layout", ["expanded", "transposed", "offset", "scalar"])
def test_a_kept_output_of_any_layout_is_spoiled(layout):
    """An expanded output (stride 0: its elements share memory, which `put_` refuses to write),
    a transposed one, one at an offset in a larger buffer, a 0-dim one, kept and returned again:
    spoiled in its own elements, not an error of the evaluator's."""
    sampler = TimedOutputSampler(big_inputs, [], CPU, seed=1, perturbing=True)
    cache = []

    def forward(x, y):
        if not cache:
            cache.append(kept_layout(x, layout))
        return cache[0]

    run_calls(sampler, forward, 4)
    assert torch.isnan(sampler.last[2]).any()
    if layout == "offset":  # the buffer before the output is not the output's: left alone
        buffer = torch.empty(0).set_(cache[0].untyped_storage())
        assert torch.equal(buffer[:100], torch.full((100,), 7.0))


def test_spikes_move_with_every_round_so_finding_them_costs_a_full_read_each_call(monkeypatch):
    """Spiked task, perturb mode: a kernel that finds the spikes once (a full read) and then
    estimates the rest from a sample needs them to stay put; they move every round, so it must
    read everything on every call, which is all sampling was to save."""
    monkeypatch.setattr(perturb, "PERTURBED", 64)  # as sparse as 65536 in a full-size input
    sampler = TimedOutputSampler(lambda: [torch.rand(16, 65536)], [], CPU, seed=3,
                                 perturbing=True, spiked="level1/37_FrobeniusNorm_")
    known, full_reads, spike_sets = {}, [], []

    def memo_spikes(x):
        flat = x.view(-1)
        where = known.get(x.data_ptr())
        if where is None or not bool((flat[where] > 1).all()):
            where = known[x.data_ptr()] = (flat > 1).nonzero().view(-1)  # the full read
            full_reads.append(1)
        spike_sets.append(set(where.tolist()))
        return x * 2

    run_calls(sampler, memo_spikes, 12)
    assert len(full_reads) == 12
    assert all(len(s) == 4 for s in spike_sets) and len({frozenset(s) for s in spike_sets}) == 12
    for check in sampler.checks():  # replayed with their own round's spikes
        call = int(check.label.split("#")[1].split()[0].rstrip(")"))
        assert set((check.inputs[0].view(-1) > 1).nonzero().view(-1).tolist()) == spike_sets[call - 1]


def test_a_kept_integer_output_returned_again_is_spoiled_too():
    """Indices (argmax-like outputs) kept and returned again hold the type's least value at
    secret positions: no index is negative."""
    sampler = TimedOutputSampler(big_inputs, [], CPU, seed=1, perturbing=True)
    cache = []

    def forward(x, y):
        if not cache:
            cache.append(x.argmax(dim=1))
        return cache[0]

    run_calls(sampler, forward, 4)
    assert (sampler.last[2] == torch.iinfo(torch.int64).min).any()


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_the_first_generation_on_the_gpu_follows_its_seed():
    """A process's first generation brings CUDA up: its generator must get the seed all the same
    (a fresh process, as a worker's evaluation is)."""
    import subprocess
    import sys

    script = ("import torch\nfrom server.evaluation.inputs import generate\n"
              "d = torch.device('cuda:0')\nmake = lambda: [torch.rand(4, 1024)]\n"
              "a, b, c = generate(make, d, 5), generate(make, d, 5), generate(make, d, 6)\n"
              "print(torch.equal(a[0], b[0]), torch.equal(a[0], c[0]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=str(ROOT), check=True).stdout.split()
    assert out[-2:] == ["True", "False"]
