"""The timed calls' inputs and output samples (server/evaluation/timed_inputs.py), call by call."""

from __future__ import annotations

import random

import pytest
import torch

from server.evaluation.stages import StageFailure
from server.evaluation.inputs import generate
from server.evaluation.timed_inputs import CHECKED_CALLS, FINGERPRINTED, TimedOutputSampler

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
    """(label, a copy of the inputs, output) of the checks in full (the last call's), taken as
    the pipeline takes them: one input set at a time."""
    return [(c.label, [x.clone() for x in c.inputs], c.output.clone())
            for c in sampler.checks() if c.positions is None]  # (spoiled once checked)


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
    assert len(samples) == 1 and samples[0][0] == "the last timed call (timed call #30)"
    for _, used, out in samples:
        assert torch.equal(out, used[0] * 2)
    assert torch.equal(samples[0][1][0], seen[-1])
    for label, used, fingerprint, positions, _ in position_checks(sampler):
        call = int(label.split("#")[1].split()[0])
        assert torch.equal(used[0], seen[call - 1])
        assert torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0]))


def test_an_output_memoised_by_pointer_is_recomputed_or_stale_in_the_samples():
    """Fresh tensors each call: a pointer memo misses (and computes), or hits a reused address
    whose values are new (and is stale, which the check shows)."""
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=1)
    memo, hits = {}, []

    def forward(x):
        hits.append(x.data_ptr() in memo)
        return memo.setdefault(x.data_ptr(), x * 2)

    run_calls(sampler, forward, 40)
    for label, used, fingerprint, positions, _ in position_checks(sampler):
        call = int(label.split("#")[1].split()[0])
        right = torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0]))
        assert right is not hits[call - 1], label


def test_the_last_timed_output_is_spoiled_once_checked_as_every_other_was():
    """Kernel provenance's recorded calls follow the re-checks: they find their previous output
    spoiled as every timed call did (an unspoiled one told them apart: red-team pass 43)."""
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=3)
    outs = []
    run_calls(sampler, lambda x: outs.append(x * 2) or outs[-1], 4)
    assert torch.isnan(outs[-2]).any() and not torch.isnan(outs[-1]).any()
    for check in sampler.checks():
        if check.positions is None:  # checked in full while still intact
            assert not torch.isnan(check.output).any()
    assert torch.isnan(outs[-1]).any()


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
    sampler = TimedOutputSampler(lower_triangular_inputs, inputs, CPU, seed=1)
    seeds, seen = [], []

    def forward(x):
        seeds.append(torch.initial_seed())
        seen.append(x.clone())
        return x * 2

    run_calls(sampler, forward, 6)
    assert all(torch.equal(x, torch.tril(x)) for x in seen)
    assert all(not torch.equal(a, b) for a, b in zip(seen, seen[1:]))
    assert not set(seeds) & {sampler._seed_of(r) for r in range(10)}
    (last,) = full_checks(sampler)
    assert torch.equal(last[1][0], seen[-1]) and sampler.inputs is inputs
    for label, used, *_ in position_checks(sampler):
        assert torch.equal(used[0], seen[int(label.split("#")[1].split()[0]) - 1])


def test_positions_are_drawn_for_every_call_after_it_returns_and_kept_off_the_device():
    """A kernel that learnt where earlier calls were fingerprinted (positions drawn once and
    kept in device memory: red-team pass 43) gains nothing: each call's positions are drawn
    after it returned, its values and the generator's state kept on the host."""
    from server.evaluation.timed_inputs import gather

    sampler = TimedOutputSampler(lambda: [torch.rand(1024, 1024)], [], CPU, seed=2)
    known = None  # 65536 positions: ~6 % of the elements

    def honest_only_where_known(x, call):  # the first and the last call honest in full
        if call in (0, CHECKED_CALLS):
            return x * 2
        out = torch.zeros_like(x)
        out.view(-1)[known] = (x * 2).view(-1)[known]
        return out

    for call in range(CHECKED_CALLS + 1):
        sampler.refresh()
        sampler.observe(honest_only_where_known(*sampler.inputs, call))
        latest = sampler.fingerprints[-1]
        assert latest.values[0].device.type == "cpu" and isinstance(latest.drawn, int)
        known = sampler._redrawn(latest)[0][0]  # where the call just made was fingerprinted
    first, second = (sampler._redrawn(p)[0][0] for p in sampler.fingerprints[:2])
    assert not torch.equal(first, second)
    with pytest.raises(StageFailure, match="sampled positions"):
        for check in sampler.checks():
            expected = check.inputs[0] * 2
            got = check.output if check.positions is None else check.output[0]
            want = expected if check.positions is None else gather(expected, check.positions[0])
            if not torch.equal(got, want):
                raise StageFailure("timing", "output_mismatch", check.label)


def test_the_calls_checked_at_their_positions_are_drawn_uniformly_among_all_but_the_last():
    counts = [0] * 8
    for _ in range(300):
        sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=0)
        run_calls(sampler, lambda x: x * 2, 8)
        drawn = [c.label for c in sampler.checks() if c.positions is not None][1:]
        assert len(set(drawn)) == CHECKED_CALLS
        for label in drawn:
            counts[int(label.split("#")[1].split()[0]) - 1] += 1
    assert counts[-1] == 0  # the last call is checked in full and at its positions anyway
    assert all(150 < c < 280 for c in counts[:-1]), counts  # 300 * 5/7 = 214 each


def test_a_reservoir_of_calls_is_fingerprinted_and_the_checked_ones_stay_uniform():
    """Only a reservoir's calls are fingerprinted (the i-th joins with probability
    RESERVOIR / i), the last one too as it returns when the count is known; the calls checked
    at their positions are still CHECKED_CALLS drawn uniformly among all but the last."""
    from server.evaluation.timed_inputs import RESERVOIR
    calls, counts, taken = 30, [0] * 30, []
    for _ in range(400):
        sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=0)
        sampler.final = calls
        run_calls(sampler, lambda x: x * 2, calls)
        assert sampler.fingerprints[-1].call == calls  # taken at its return
        assert [p.call for p in sampler.fingerprints][:RESERVOIR] == list(range(1, RESERVOIR + 1))
        taken.append(len(sampler.fingerprints))
        drawn = [call_number(c.label) for c in sampler.checks() if c.positions is not None][1:]
        assert len(set(drawn)) == CHECKED_CALLS and calls not in drawn
        for call in drawn:
            counts[call - 1] += 1
    # RESERVOIR * (1 + H(30) - H(6)) ~ 15 of 30, the last included
    assert 11 < sum(taken) / len(taken) < 19
    assert all(35 < c < 110 for c in counts[:-1]), counts  # 400 * 5/29 = 69 each


def test_calls_not_checked_in_full_are_checked_at_secret_positions():
    """Dishonest on every call but the last: CHECKED_CALLS other calls, drawn afterwards, are
    compared with the reference at their fingerprint positions."""
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=2)
    calls = iter(range(1, 13))
    run_calls(sampler, lambda x: x * 2 if next(calls) == 12 else torch.zeros_like(x), 12)
    checked = position_checks(sampler)
    assert len(checked) == CHECKED_CALLS + 1 == len({label for label, *_ in checked})
    assert checked[0][0].startswith("timed call #12 ")  # the last call, at its positions too
    for label, used, fingerprint, positions, shapes in checked[1:]:
        assert shapes == [torch.Size([8, 16])]
        assert not torch.allclose(fingerprint[0], torch.take(used[0] * 2, positions[0]))
    honest = TimedOutputSampler(seeded_inputs, [], CPU, seed=2)
    run_calls(honest, lambda x: x * 2, 12)
    for label, used, fingerprint, positions, shapes in position_checks(honest):
        assert torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0]))


def test_scalar_and_empty_outputs_are_fingerprinted_whole():
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=2)
    run_calls(sampler, lambda x: (x.sum(), x[:0]), 5)
    for label, used, fingerprint, positions, shapes in position_checks(sampler):
        assert torch.equal(fingerprint[0], used[0].sum().expand(FINGERPRINTED))
        assert fingerprint[1].numel() == 0 and positions[1] is None


def test_spiked_tasks_time_on_spiked_inputs_and_a_sampled_norm_fails_the_last_call():
    """A kernel honest while the correctness trials run (it counts its calls) and estimating the
    norm from a sample once timed: every timed call's inputs carry spikes too, so the last call's
    full check fails it."""
    from server.evaluation.correctness import check_output

    def big():
        return [torch.rand(512, 1024)]

    def sampled(x):
        return x / torch.sqrt(x.reshape(-1)[::16].square().sum() * 16)

    for perturbing in (False, True):
        sampler = TimedOutputSampler(big, [], CPU, seed=4, perturbing=perturbing,
                                     spiked="level1/37_FrobeniusNorm_")
        seen = []
        run_calls(sampler, lambda x: seen.append(x.clone()) or sampled(x), 6)
        # the spikes, every call (perturbing moves an eighth of this small input a round, so a
        # spike may be covered for a call; at full size one element in 30000)
        assert all((x > 1).any() for x in seen)
        checks = iter(sampler.checks())
        last = next(checks)
        assert torch.equal(last.inputs[0], seen[-1])  # replayed with its spikes
        with pytest.raises(StageFailure) as failure:
            check_output(last.output, last.inputs[0] / torch.linalg.vector_norm(last.inputs[0]),
                         atol=1e-2, rtol=1e-2, task_id="level1/37_FrobeniusNorm_")
        assert failure.value.error_class in ("output_mismatch", "normalization")
        for check in checks:
            call = int(check.label.split("#")[1].split()[0])
            assert torch.equal(check.inputs[0], seen[call - 1]), check.label


@pytest.mark.parametrize("task_id, sign", [("level1/49_Max_reduction_over_a_dimension", 1),
                                           ("level1/53_Min_reduction_over_a_dimension", -1)])
def test_a_max_or_min_reductions_timed_calls_carry_spikes_beyond_the_range(task_id, sign):
    """Red-team pass 61 stopped reading a column near the [0, 1) bound: every timed call's
    inputs carry spikes beyond it (below it for a minimum), so a kernel honest only while the
    correctness trials run fails the timed checks."""
    for perturbing in (False, True):
        sampler = TimedOutputSampler(lambda: [torch.rand(8, 64, 63)], [], CPU, seed=5,
                                     perturbing=perturbing, spiked=task_id)
        seen = []
        run_calls(sampler, lambda x: seen.append(x.clone()) or x.amax(dim=1), 6)
        assert all(int((x * sign > 1).sum()) > 400 for x in seen)  # 512 rows, a spike each
        assert all(float((x * sign).min()) >= -1 for x in seen)  # none the other way


def test_a_norm_from_a_sample_plus_learned_spike_heights_misses_the_timed_checks(monkeypatch):
    """Red-team pass 57: every timed call carried four spikes of one height, learned from the
    first call, so a norm from an eighth of the input plus four squares of it passed every
    fingerprint. Each spike's height is now its own (inputs.SPIKE_SPREAD): the same estimate is
    off by percents, and the re-checks at the calls' positions see it."""
    from server.evaluation import inputs as inputs_module

    def big():
        return [torch.rand(512, 1024)]

    def learned(x, known):
        if "height" not in known:
            known["height"] = float(x.max())
            return x / torch.linalg.vector_norm(x)
        sample = x.reshape(-1)[: x.numel() // 8]
        sample = sample[sample <= 1]  # the spikes found in the sample: left out
        squares = sample.square().sum() * (x.numel() / sample.numel()) + 4 * known["height"] ** 2
        return x / torch.sqrt(squares)

    def misses(spread) -> int:
        monkeypatch.setattr(inputs_module, "SPIKE_SPREAD", spread)
        sampler = TimedOutputSampler(big, [], CPU, seed=4, spiked="level1/37_FrobeniusNorm_")
        known = {}  # the kernel's memory across calls
        run_calls(sampler, lambda x: learned(x, known), 12)
        wrong = 0
        for _, (x,), fingerprint, (positions,), _ in position_checks(sampler):
            expected = torch.take(x / torch.linalg.vector_norm(x), positions)
            wrong += not torch.allclose(fingerprint[0], expected, rtol=1e-2, atol=1e-7)
        return wrong

    spread = inputs_module.SPIKE_SPREAD
    assert misses((1.0, 1.0)) == 0  # one height: every check passed
    assert misses(spread) > 0


def rows_inputs():
    return [torch.rand(512, 4)]


@pytest.mark.parametrize("forward, inputs, expected", [
    (torch.relu, [torch.rand(512, 8)], [0]),
    (lambda x: torch.softmax(x, dim=1), [torch.rand(512, 8)], [0]),
    (lambda x: x.sum(dim=1), [torch.rand(512, 8)], [0]),
    (torch.matmul, [torch.rand(512, 512), torch.rand(512, 512)], [0]),  # A's rows; B stays whole
    (torch.add, [torch.rand(512, 8), torch.rand(512, 8)], [0, 1]),  # both sliced
    (lambda x: x - x.mean(dim=0), [torch.rand(512, 8)], None),  # a statistic over the batch
    (lambda x: x - x[0], [torch.rand(512, 8)], None),  # one row for all
    (lambda x: x.cumsum(dim=0), [torch.rand(512, 8)], None),
    (lambda x: x / torch.linalg.vector_norm(x), [torch.rand(512, 8)], None),  # a global norm
    # outputs far below atol (a full-size Frobenius norm's are ~4e-5): still told apart
    (lambda x: x / torch.linalg.vector_norm(x) * 1e-4, [torch.rand(512, 8)], None),
    (lambda x: torch.softmax(x, dim=1) * 1e-6, [torch.rand(512, 8)], [0]),
    (lambda x: x.sum(dim=0), [torch.rand(512, 8)], None),  # no rows in the output
    (lambda x: x.max(), [torch.rand(512, 8)], None),
    (lambda x, k: x * k, [torch.rand(512, 8), 3], [0]),  # non-tensor arguments pass through
    (torch.relu, [torch.rand(32, 8)], [0]),  # 16 rows a call: half the batch
    (torch.relu, [torch.rand(31, 8)], None),  # too few rows for 16 a call
    (lambda x: x.to("meta"), [torch.rand(512, 8)], None),  # anything failing: off, no error
])
def test_row_separable_tasks_are_told_from_the_others(forward, inputs, expected):
    from server.evaluation.timed_inputs import separable_rows
    assert separable_rows(forward, inputs, atol=1e-2, rtol=1e-2) == expected


def call_number(label: str) -> int:
    return int(label.split("#")[1].split()[0].rstrip(")"))


def print_of(sampler, call: int):
    """The fingerprint taken of timed call #call."""
    (fingerprint,) = [p for p in sampler.fingerprints if p.call == call]
    return fingerprint


def test_sampled_checks_of_a_row_separable_task_compute_on_rows_drawn_per_call():
    """Each call's fingerprint lies in 1/ROW_SHARE of the rows, drawn for that call; a sampled
    check's inputs are those rows of the call's inputs, and its positions index their output."""
    from server.evaluation.timed_inputs import ROW_SHARE
    sampler = TimedOutputSampler(rows_inputs, [], CPU, seed=3, row_inputs=[0])
    seen = []
    run_calls(sampler, lambda x: seen.append(x.clone()) or x * 2, 10)
    assert sampler.row_count == 512 // ROW_SHARE
    drawn = {tuple(sampler.rows(p.shift).tolist()) for p in sampler.fingerprints}
    assert len(drawn) > 5  # rows moved for every call (a shift of 512 may repeat)
    for p in sampler.fingerprints:
        positions, _ = sampler._redrawn(p)  # drawn again from the state kept on the host
        assert set((positions[0] // 4).tolist()) <= set(sampler.rows(p.shift).tolist())
        assert all(v.device.type == "cpu" for v in p.values)
    checked = position_checks(sampler)
    assert checked[0][4] == [torch.Size([512, 4])]  # the last call: against the whole output
    assert len(checked) == CHECKED_CALLS + 1
    for label, used, fingerprint, positions, shapes in checked[1:]:
        rows = sampler.rows(print_of(sampler, call_number(label)).shift)
        assert shapes == [(512 // ROW_SHARE, 4)]
        assert torch.equal(used[0], seen[call_number(label) - 1][rows])
        assert torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0]))


def upper_triangular_inputs():
    return [torch.triu(torch.rand(512, 512)), torch.triu(torch.rand(512, 512))]


def test_a_calls_rows_keep_their_order_in_the_batch():
    """KernelBench level 1 task 14 (triu of a product of upper-triangular matrices) is separable
    by rows in order only: rows shifted past the batch's end and left unsorted made the honest
    reference fail its own sampled checks on the H200 (kb_sweep). Every sampled check of the
    exact output passes, however the shift wraps."""
    from server.evaluation.timed_inputs import separable_rows

    def forward(a, b):
        return torch.triu(a @ b)

    assert separable_rows(forward, upper_triangular_inputs(), atol=1e-2, rtol=1e-2) == [0]
    for seed in range(4):
        sampler = TimedOutputSampler(upper_triangular_inputs, [], CPU, seed=seed, row_inputs=[0])
        run_calls(sampler, forward, 12)
        for p in sampler.fingerprints:
            rows = sampler.rows(p.shift)
            assert torch.equal(rows, rows.sort().values)
        for label, used, fingerprint, positions, _ in position_checks(sampler):
            assert torch.allclose(fingerprint[0], torch.take(forward(*used), positions[0])), label


@pytest.mark.parametrize("perturbing", [False, True])
def test_stale_outputs_of_a_row_separable_task_are_seen_in_the_calls_rows(perturbing):
    """A pointer memo (perturbing: the same input object every call) returns its first output;
    the rows' reference shows every stale call among the sampled ones."""
    def big():
        return [torch.rand(4096, 1024)]

    sampler = TimedOutputSampler(big, [], CPU, seed=3, row_inputs=[0], perturbing=perturbing)
    memo, hits = {}, []

    def forward(x):
        hits.append(x.data_ptr() in memo)
        return memo.setdefault(x.data_ptr(), x * 2)

    run_calls(sampler, forward, 12)
    if perturbing:  # the same input object every call: every call after the first is stale
        assert all(hits[1:])
    for label, used, fingerprint, positions, _ in position_checks(sampler)[1:]:
        right = torch.allclose(fingerprint[0], torch.take(used[0] * 2, positions[0]))
        assert right is not hits[call_number(label) - 1], label


def test_a_kernel_skipping_some_rows_is_seen_by_rows_drawn_per_call():
    """Half the rows left unwritten on every timed call: each sampled call's own rows meet them."""
    sampler = TimedOutputSampler(rows_inputs, [], CPU, seed=5, row_inputs=[0])

    def half(x):
        out = x * 2
        out[256:] = 0
        return out

    run_calls(sampler, half, 12)
    for label, used, fingerprint, positions, _ in position_checks(sampler)[1:]:
        assert not torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0])), label


def test_outputs_without_the_inputs_rows_are_fingerprinted_anywhere():
    sampler = TimedOutputSampler(rows_inputs, [], CPU, seed=2, row_inputs=[0])
    run_calls(sampler, lambda x: x.sum(dim=0), 6)
    assert sampler.row_count is None
    for label, used, fingerprint, positions, shapes in position_checks(sampler):
        assert used[0].shape == (512, 4) and shapes == [torch.Size([4])]


SEPARABLE_BUNDLED = {  # the profile's verdict on the bundled level-1 tasks
    "19_ReLU": [0], "23_Softmax": [0], "1_Square_matrix_multiplication_": [0],
    "4_Matrix_vector_multiplication_": [0], "40_LayerNorm": [0], "36_RMSNorm_": [0],
    "47_Sum_reduction_over_a_dimension": [0], "51_Argmax_over_a_dimension": [0],
    "37_FrobeniusNorm_": None,  # one norm over the whole tensor
    "33_BatchNorm": None,  # training mode: statistics over the batch
}


@pytest.mark.parametrize("name, expected", sorted(SEPARABLE_BUNDLED.items()))
def test_the_bundled_tasks_are_told_separable_or_not(name, expected, tmp_path):
    from server.evaluation.loading import load_reference
    from server.evaluation.timed_inputs import separable_rows
    from tests.conftest import BUNDLED
    task = load_reference((BUNDLED / "level1" / f"{name}.py").read_text(), str(tmp_path))
    model = task.Model(*task.get_init_inputs())
    inputs = generate(task.get_inputs, CPU, 3)
    sliced = inputs[0].shape[0] >= 32  # the bundled matmuls' 128 rows; the others' 4-16: too few
    assert sliced is (name in ("1_Square_matrix_multiplication_", "4_Matrix_vector_multiplication_"))
    with torch.no_grad():
        assert separable_rows(model, inputs, atol=1e-2, rtol=1e-2) == (expected if sliced else None)
        assert separable_rows(model, inputs, atol=1e-2, rtol=1e-2, min_batch=2) == expected


def test_calls_observed_after_the_timed_ones_are_each_checked_at_their_positions():
    """Kernel provenance's recorded calls come after the timed calls' re-checks (the last timed
    call in full, CHECKED_CALLS drawn among the others): each is checked at its positions, after
    the argument list is shown to hold the last one's inputs."""
    for _ in range(20):
        sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=2)
        run_calls(sampler, lambda x: x * 2, 10)
        labels = [c.label for c in sampler.checks()]
        assert labels[:2] == ["the last timed call (timed call #10)", "timed call #10 (sampled positions)"]
        assert len(labels) == 2 + CHECKED_CALLS
        assert all(label.startswith("timed call #") for label in labels[2:])
        for k in (1, 2):
            sampler.refresh()
            sampler.observe(sampler.inputs[0] * 2, label=f"recorded call #{k}", always=True)
        assert [c.label for c in sampler.always_checks()] == [
            "recorded call #1 (sampled positions)", "recorded call #2 (sampled positions)"]
    sampler.inputs[0].add_(1)  # the last recorded call wrote into its input
    with pytest.raises(StageFailure) as failure:
        list(sampler.always_checks())
    assert failure.value.error_class == "input_mutated"


def test_a_calls_rows_are_spread_over_the_batch_and_every_row_can_be_drawn():
    """The secret rows lie one per stretch of the batch; every call shifts them (cyclically) by
    a secret number of rows, kept in increasing order."""
    seen = set()
    for seed in range(6):  # ~26 calls of 200 fingerprinted each (the reservoir's)
        sampler = TimedOutputSampler(lambda: [torch.rand(530, 4)], [], CPU, seed=seed, row_inputs=[0])
        run_calls(sampler, lambda x: x * 2, 200)
        assert sampler.row_count == 16
        base = sampler.base_host
        assert all(33 * k <= row < 33 * (k + 1) for k, row in enumerate(base))
        for p in sampler.fingerprints:
            rows = sampler.rows(p.shift).tolist()
            assert any(rows == sorted((row + shift) % 530 for row in base)
                       for shift in {(r - base[0]) % 530 for r in rows})
            seen.update(rows)
    assert len(seen) > 500



def test_a_kept_output_is_spoiled_with_fresh_inputs_too():
    """A task whose outputs barely depend on its own inputs (DeepNarrowMLP): one output kept and
    returned on every timed call passed every check (red-team pass 28); spoiled before the next
    call, it fails the last one's full check."""
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=1)
    kept = []

    def forward(x):
        if not kept:
            kept.append(torch.full((8, 16), 0.5))
        return kept[0]

    run_calls(sampler, forward, 3)
    assert torch.isnan(kept[0]).any()
    fresh = TimedOutputSampler(seeded_inputs, [], CPU, seed=1)
    outputs = []
    run_calls(fresh, lambda x: outputs.append(x * 2) or outputs[-1], 3)
    assert not torch.isnan(outputs[-1]).any()  # the last output is never spoiled


def test_an_output_made_in_inference_mode_is_spoiled_without_blaming_forward():
    """`@torch.inference_mode()` on forward is ordinary PyTorch; its outputs are inference tensors,
    which refuse in-place writes outside that mode, and spoiling one raised in the evaluator's
    own hook (false-rejection probe 7: `forward failed while being timed`)."""
    sampler = TimedOutputSampler(seeded_inputs, [], CPU, seed=1)
    kept = []

    @torch.inference_mode()
    def forward(x):
        if not kept:
            kept.append(x * 2)
        return kept[0]

    run_calls(sampler, forward, 3)
    assert kept[0].is_inference() and torch.isnan(kept[0]).any()


def _negated_inputs(get_inputs, device, seed, into=None):
    """An extra trial's maker as inputs.py's are: the task's inputs from `seed`, changed."""
    return [-x if torch.is_tensor(x) else x for x in generate(get_inputs, device, seed)]


def _zero_inputs(get_inputs, device, seed, into=None):
    return [torch.zeros_like(x) if torch.is_tensor(x) else x for x in generate(get_inputs, device, seed)]


EXTRAS = [("negated inputs", _negated_inputs, True), ("zeros", _zero_inputs, False)]


def test_timed_rounds_on_the_extra_inputs_are_secret_and_always_checked():
    """Red-team pass 52: a kernel counting calls was honest on the correctness stage's extra
    trials and specialised to [0, 1) on every timed call. Each extra kind now gets one of the
    first rounds after the first, later rounds one in EXTRA_SHARE, and every such round is
    re-checked at its fingerprint, on the inputs made again, with the kind's tolerance. Where
    the number of calls is known (`final`), every kind also gets a secret round after the
    window (pass 56: a kernel honest on the window's rounds alone met a kind's later round in
    about half the steps of few calls)."""
    from server.evaluation.timed_inputs import EXTRA_FIRST

    seen_windows, later_rounds = set(), set()
    for run in range(12):
        inputs = seeded_inputs()
        sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=9, extras=EXTRAS)
        if run % 2:
            sampler.final = 60
        seen = []
        run_calls(sampler, lambda x: seen.append(x.clone()) or x * 2, 60)
        window = sorted(r for r in sampler.extra_rounds if r <= 1 + EXTRA_FIRST)
        assert len(window) == 2 and window[0] >= 2
        assert sorted(sampler.extra_rounds[r] for r in window) == [0, 1]  # each kind once
        seen_windows.add(tuple(window))
        later = {k for r, k in sampler.extra_rounds.items() if r > 1 + EXTRA_FIRST}
        if sampler.final:
            assert later == {0, 1}  # every kind again after the window
            later_rounds.update(r for r in sampler.extra_rounds if r > 1 + EXTRA_FIRST)
        for r, kind in sampler.extra_rounds.items():
            x = seen[r - 1]
            assert (x <= 0).all() if kind == 0 else (x == 0).all()
        checked = {}
        for c in sampler.checks():
            if c.positions is not None:
                call = int(c.label.split("#")[1].split()[0])
                checked[call] = c
                assert torch.equal(c.inputs[0], seen[call - 1])  # made again, the same
                assert torch.equal(c.output[0], torch.take(seen[call - 1] * 2, c.positions[0]))
        for r, kind in sampler.extra_rounds.items():
            assert r in checked and EXTRAS[kind][0] in checked[r].label
            assert checked[r].cancelling is EXTRAS[kind][2]
        plain = [c for call, c in checked.items() if call not in sampler.extra_rounds and call != 60]
        assert all(not c.cancelling for c in plain)
    assert len(seen_windows) > 1  # the rounds are drawn, not fixed
    assert len(later_rounds) > 10  # and so are the later ones
    for _ in range(6):  # few calls: four after the window, each kind still among them
        sampler = TimedOutputSampler(seeded_inputs, seeded_inputs(), CPU, seed=9, extras=EXTRAS)
        sampler.final = 8
        run_calls(sampler, lambda x: x * 2, 8)
        assert {k for r, k in sampler.extra_rounds.items() if r > 1 + EXTRA_FIRST} == {0, 1}


def test_a_kernel_specialised_from_the_first_timed_call_meets_an_extra_round():
    """Honest only on negative inputs' sign (it returns |x| * 2, right on [0, 1) alone): its
    fingerprint on a negated round differs from the reference's there."""
    inputs = seeded_inputs()
    sampler = TimedOutputSampler(seeded_inputs, inputs, CPU, seed=4, extras=EXTRAS[:1])
    run_calls(sampler, lambda x: x.abs() * 2, 10)
    wrong = [c for c in sampler.checks() if c.positions is not None
             and not torch.equal(c.output[0], torch.take(c.inputs[0] * 2, c.positions[0]))]
    assert wrong and all("negated inputs" in c.label for c in wrong)


def test_perturbed_timed_inputs_get_their_extra_rounds_in_the_same_buffers():
    """Perturbing, the inputs are the same buffers every call: an extra round is written into
    them (fresh tensors would tell the kernel which call it is) and undone after its call (the
    task's inputs made again: no copy held meanwhile); the re-checks make the round's inputs
    again whole. Not for a generator that cannot be replayed."""
    def big():
        return [torch.rand(2048, 8192)]  # perturbable, of PERTURB_MIN_BYTES

    inputs = big()
    sampler = TimedOutputSampler(big, inputs, CPU, seed=2, perturbing=True, extras=EXTRAS)
    assert sampler.perturbing and sampler.extra_rounds
    addresses, seen = set(), []

    def forward(x):
        addresses.add(x.data_ptr())
        seen.append((float(x.min()), float(x.max())))
        return x * 2

    run_calls(sampler, forward, 12)
    assert len(addresses) == 1
    for r, kind in sampler.extra_rounds.items():
        low, high = seen[r - 1]
        assert (high <= 0) if kind == 0 else (low == high == 0)
    plain = [seen[r - 1] for r in range(1, 13) if r not in sampler.extra_rounds]
    assert all(low >= 0 and high > 0 for low, high in plain)  # undone: the task's values again
    calls = set()
    for c in sampler.checks():  # one input set at a time: the trusted copy is changed in place
        if c.positions is not None:
            assert torch.equal(c.output[0], torch.take(c.inputs[0] * 2, c.positions[0])), c.label
            calls.add(int(c.label.split("#")[1].split()[0]))
    assert set(sampler.extra_rounds) <= calls | {12}
    unseeded = TimedOutputSampler(lambda: [torch.full((2048, 8192), random.random())],
                                  [torch.zeros(2048, 8192)], CPU, seed=2, perturbing=True,
                                  extras=EXTRAS)
    assert unseeded.perturbing and not unseeded.extras and not unseeded.extra_rounds


def test_an_extra_round_fills_perturbed_buffers_in_place_and_is_made_again_the_same():
    """At full size a round written over the perturbed inputs is one pass into the same buffers
    (no second 6 GiB tensor, no copy): the makers fill them; its re-check makes it again, equal
    to what the call saw."""
    from server.evaluation.inputs import _extra_inputs, _signed, extra_trials

    def big():
        return [torch.rand(2048, 8192)]

    inputs = big()
    sampler = TimedOutputSampler(big, inputs, CPU, seed=7, perturbing=True,
                                 extras=extra_trials("level1/19_ReLU", False))
    buffer, seen = sampler.inputs[0], {}

    def forward(x):
        assert x is buffer
        seen[sampler.round] = x.clone()
        return torch.relu(x)

    run_calls(sampler, forward, 8)
    kinds = {sampler.extra_rounds[r]: seen[r] for r in sampler.extra_rounds}
    assert kinds[0].min() < -16 and kinds[0].max() > 16 and bool((kinds[1] == 0).all())
    for check in sampler.checks():
        call = call_number(check.label)
        if check.positions is not None:
            assert torch.equal(check.inputs[0], seen[call])
    made = _extra_inputs(big, CPU, 3, _signed, into=[buffer])
    assert made[0] is buffer and torch.equal(buffer, _extra_inputs(big, CPU, 3, _signed)[0])
    strided = torch.rand(8192, 2048).t()  # not contiguous: a new tensor is filled instead
    assert _extra_inputs(big, CPU, 3, _signed, into=[strided])[0] is not strided


def test_an_extra_rounds_recheck_keeps_the_calls_other_arguments():
    """Perturbing, an extra round writes only tensors over the buffers: its call sees the
    made-once inputs' other arguments (here a scalar drawn from the seed), and its re-check
    must compute on those too, not on the round seed's (the reference would differ)."""
    def with_scalar():
        return [torch.rand(2048, 8192), int(torch.randint(1, 1000, ()).item())]

    sampler = TimedOutputSampler(with_scalar, [], CPU, seed=5, perturbing=True, extras=EXTRAS)
    seen = {}

    def forward(x, k):
        seen[sampler.round] = (x.clone(), k)
        return x * k

    run_calls(sampler, forward, 8)
    assert sampler.extra_rounds
    for r in sampler.extra_rounds:
        x, k = sampler._inputs_of(r)
        assert torch.equal(x, seen[r][0]) and k == seen[r][1], r


@pytest.mark.parametrize("batch, rows", [(128, 16), (32, 16), (31, None), (1024, 32)])
def test_batches_from_twice_row_min_take_row_min_rows_at_least(batch, rows):
    """A level-2 convolution's batch of 128 is sliced too (16 rows, one per stretch of 8): a
    kernel skipping any 2 * 8 rows in a row (which hold a whole stretch, however the rows are
    shifted) meets every sampled check."""
    sampler = TimedOutputSampler(lambda: [torch.rand(batch, 4)], [], CPU, seed=1, row_inputs=[0])
    stretch = batch // (rows or batch)

    def skipping(x):
        out = x * 2
        out[5:5 + 2 * stretch] = 0
        return out

    run_calls(sampler, skipping, 10)
    assert sampler.row_count == rows
    if rows is not None:
        assert [len(sampler.rows(p.shift)) for p in sampler.fingerprints] == [rows] * len(sampler.fingerprints)
    for label, used, fingerprint, positions, _ in position_checks(sampler):
        assert not torch.equal(fingerprint[0], torch.take(used[0] * 2, positions[0])), label


def _one_row_changed(get_inputs, device, seed, into=None):
    """A unit trial's kind of round: only a few samples differ from a plain draw."""
    inputs = generate(get_inputs, device, seed)
    inputs[0][37] += 100
    return inputs


_one_row_changed.few_samples = True


def test_extra_rounds_whose_errors_lie_in_few_samples_are_fingerprinted_anywhere():
    """A kernel wrong only in the driven samples of a unit round (here: one row of 128) would
    meet 16 sampled rows one round in eight; the round's fingerprint lies anywhere in its output
    and its re-check runs the reference on the whole batch. Other extra rounds keep their rows."""
    extras = [("one row changed", _one_row_changed, False), EXTRAS[1]]
    for seed in range(4):
        sampler = TimedOutputSampler(lambda: [torch.rand(128, 512)], [], CPU, seed=seed,
                                     row_inputs=[0], extras=extras)
        sampler.final = 24

        def wrong_where_woken(x):
            return torch.where(x > 50, 0, x * 2)

        run_calls(sampler, wrong_where_woken, 24)
        woken = [r for r, k in sampler.extra_rounds.items() if k == 0]
        assert woken
        for p in sampler.fingerprints:
            assert (p.shift is None) is (p.extra and "one row changed" in p.label), p.label
        for c in sampler.checks():
            if c.positions is not None and "one row changed" in c.label:
                assert c.inputs[0].shape == (128, 512)
                assert not torch.equal(c.output[0], torch.take(c.inputs[0] * 2, c.positions[0]))


@pytest.mark.parametrize("perturbing", [False, True])
def test_rounds_of_a_kind_the_same_for_every_seed_share_one_reference(perturbing):
    """All-zero rounds are the same inputs whatever their seed: their checks come one after
    another with one key and one input set (one reference forward for all of them); a kernel
    wrong on zeros is still refused at every one of them."""
    from server.evaluation.inputs import extra_trials

    def inputs_of_relu():
        return [torch.rand(16, 64)]

    for forward, honest in ((torch.relu, True), (lambda x: torch.relu(x) + (x == 0), False)):
        for _ in range(5):  # (the last call, checked in full, may be one of only two zero rounds)
            sampler = TimedOutputSampler(inputs_of_relu, inputs_of_relu(), CPU, seed=3, perturbing=perturbing,
                                         extras=extra_trials("level1/19_ReLU", False))
            sampler.final = 60
            run_calls(sampler, forward, 60)
            zero_rounds = sorted(r for r, k in sampler.extra_rounds.items() if k == 1 and r != 60)
            if len(zero_rounds) >= 2:
                break
        assert len(zero_rounds) >= 2
        checks = [c for c in sampler.checks() if c.positions is not None]
        zero_checks = [c for c in checks if "all-zero" in c.label and call_number(c.label) != 60]
        assert sorted(call_number(c.label) for c in zero_checks) == zero_rounds
        at = [k for k, c in enumerate(checks) if any(c is z for z in zero_checks)]
        assert at == list(range(at[0], at[0] + len(at)))  # one after another
        assert {c.key for c in zero_checks} == {("same for every seed", 1)}
        assert len({id(c.inputs) for c in zero_checks}) == 1 and bool((zero_checks[0].inputs[0] == 0).all())
        signed = [c for c in checks if "signed" in c.label]
        assert signed and all(c.key[0] == "round" for c in signed)  # drawn from each round's seed
        for c in zero_checks:
            right = torch.equal(c.output[0], torch.take(torch.relu(c.inputs[0]), c.positions[0]))
            assert right is honest, c.label


def test_only_makers_filling_one_value_with_fixed_arguments_are_the_same_for_every_seed():
    import functools

    from server.evaluation.inputs import _extra_inputs, _signed, _zeros, same_for_every_seed

    zeros, signed = (functools.partial(_extra_inputs, make=m) for m in (_zeros, _signed))
    assert same_for_every_seed(zeros, lambda: [torch.rand(4, 8), 3], [1, 2, 3])
    assert not same_for_every_seed(signed, lambda: [torch.rand(4, 8)], [1, 2])
    assert not same_for_every_seed(zeros, lambda: [torch.rand(4, 8), int(torch.randint(0, 99, ()))], [1, 2])
    assert not same_for_every_seed(zeros, lambda: [torch.rand(4, 8), torch.randint(0, 9, (4,))], [1, 2])
    assert not same_for_every_seed(zeros, lambda: [torch.rand(int(torch.randint(2, 99, ())), 8)], [1, 2])
    assert not same_for_every_seed(_zeros, lambda: [torch.rand(4, 8)], [1, 2])  # not a trial's maker


def test_sliced_rounds_of_a_kind_the_same_for_every_seed_take_their_rows_of_one_input_set():
    """Row-separable (a batch of 128): each all-zero round keeps its own rows and reference, all
    of them sliced from one input set made once (at full size a 6 GiB fill per round)."""
    from server.evaluation.inputs import extra_trials

    def inputs_of_relu():
        return [torch.rand(128, 64)]

    sampler = TimedOutputSampler(inputs_of_relu, inputs_of_relu(), CPU, seed=4, row_inputs=[0],
                                 extras=extra_trials("level1/19_ReLU", False))
    sampler.final = 80
    run_calls(sampler, lambda x: torch.relu(x) + (x == 0), 80)  # wrong on zeros
    made, inputs_of = [], sampler._inputs_of
    sampler._inputs_of = lambda used: made.append(used) or inputs_of(used)
    zero_rounds = {r for r, k in sampler.extra_rounds.items() if k == 1 and r != 80}
    zero_checks = [c for c in sampler.checks() if c.positions is not None and "all-zero" in c.label
                   and call_number(c.label) != 80]
    assert len(zero_checks) == len(zero_rounds) >= 2
    assert len([r for r in made if r in zero_rounds]) == 1
    assert len({c.key for c in zero_checks}) == len(zero_checks)  # a reference each, on its rows
    for c in zero_checks:
        assert c.inputs[0].shape == (16, 64) and not bool(c.inputs[0].any())
        assert not torch.equal(c.output[0], torch.take(torch.relu(c.inputs[0]), c.positions[0]))


class _Normalised(torch.nn.Module):
    def forward(self, x):
        return x / torch.linalg.vector_norm(x)


def test_rechecks_sharing_a_reference_output_share_its_tolerance_and_check_outputs_rule(monkeypatch):
    """A normalised task's tolerance takes the reference output's peak (a signed round's, its RMS
    too): a pass over the whole output (7.5 GiB at full-size Frobenius), made once per reference
    output for all the checks that share it, not once per check. And a check at positions gets
    the rule check_output applies in full: on a signed round of a normalised task atol is the
    peak's cap, not raised to rtol x RMS again (that let a fingerprint through with an error the
    whole output's check refuses)."""
    from server.evaluation import correctness, pipeline
    from server.evaluation.protocol import EvalRequest
    from server.evaluation.timed_inputs import TimedCheck

    model = _Normalised()
    side = pipeline._ReferenceSide(model, correctness.pristine_state(model))
    req = EvalRequest(code="", reference_source="", task_id="level1/37_FrobeniusNorm_")
    x, y = torch.rand(8, 16), torch.rand(8, 16)
    x[0, 0] = 0.0  # a zero reference value: only atol allows an error there
    positions = [torch.arange(0, 128, 3)]

    def check(key, inputs, error=0.0, cancelling=False):
        values = model(inputs[0]).flatten()[positions[0]].clone()
        values[0] += error
        return TimedCheck(f"call on {key}", key, inputs, [values], positions, [(8, 16)], cancelling)

    passes, peak = [], correctness._peak
    monkeypatch.setattr(correctness, "_peak", lambda t: passes.append(t.shape) or peak(t))
    pipeline._recheck(req, side, [check("a", [x]), check("a", [x]), check("a", [x]), check("b", [y])])
    assert len(passes) == 2  # one per reference output
    with pytest.raises(StageFailure):  # what is wrong is still refused at a shared reference
        pipeline._recheck(req, side, [check("a", [x]), check("a", [x], error=1e-2)])

    signed = model(x)
    rms_floor = 1e-2 * float(signed.pow(2).mean().sqrt())
    error = rms_floor / 4  # under rtol x RMS, far over the peak's cap (~1e-6)
    wrong = signed.clone()
    wrong[0, 0] += error
    with pytest.raises(StageFailure):
        correctness.check_output(wrong, signed, atol=1e-2, rtol=1e-2, task_id=req.task_id, cancelling=True)
    with pytest.raises(StageFailure):
        pipeline._recheck(req, side, [check("a", [x], error=error, cancelling=True)])
    pipeline._recheck(req, side, [check("a", [x], cancelling=True)])


def test_each_fingerprint_draws_its_positions_from_a_seed_of_its_own():
    """Red-team pass 58: one generator's state, saved (get_state) before each fingerprint, was
    left in a freed heap buffer that a kernel's torch.empty could be handed on the cpu
    evaluator, and it named every later call's positions. Each fingerprint now seeds its
    positions afresh from a secret: the stream after one call's positions is not the next's."""
    sampler = TimedOutputSampler(lambda: [torch.rand(512, 512)], [], CPU, seed=3)
    run_calls(sampler, lambda x: x * 2, 4)
    prints = sampler.fingerprints
    assert len({p.drawn for p in prints}) == len(prints) and all(isinstance(p.drawn, int) for p in prints)
    for earlier, later in zip(prints, prints[1:]):
        gen = torch.Generator().manual_seed(earlier.drawn)
        assert torch.equal(sampler._positions_of(None, gen)[0][0], sampler._redrawn(earlier)[0][0])
        continued = sampler._positions_of(None, gen)[0][0]  # what the same stream draws next
        assert not torch.equal(continued, sampler._redrawn(later)[0][0])
