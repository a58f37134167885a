"""The comparison and normalisation logic of the correctness stage (CPU-only PyTorch)."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")  # the seed: these run on a CPU-only PyTorch, skip without one

from server.evaluation.correctness import check_deterministic, check_inputs_unchanged, check_output, tolerances
from server.evaluation.inputs import (AWAY_LABEL, AWAY_SPAN, EXTRA_SEED, LARGE_LABEL, LARGE_SCALE,
                                     LEVELS_LABEL, OFFSET, OFFSET_LABEL, SMALL_LABEL, SPREAD_LABEL,
                                     TIE_LABEL, correctness_trials, describe_extra_inputs, generate,
                                     trial_count)
from server.evaluation.seeds import derived_seed
from server.evaluation.stages import StageFailure

SOFTMAX, FROBENIUS, RELU = "level1/23_Softmax", "level1/37_FrobeniusNorm_", "level1/19_ReLU"
ARGMAX, MIN = "level1/51_Argmax_over_a_dimension", "level1/53_Min_reduction_over_a_dimension"
LAYERNORM = "level1/40_LayerNorm"


def verdict(out, ref, task_id=None, atol=1e-2, rtol=1e-2):
    try:
        check_output(out, ref, atol=atol, rtol=rtol, task_id=task_id)
    except StageFailure as failure:
        return failure.error_class, failure.feedback
    return "ok", ""


def test_matching_outputs_pass_and_report_the_error():
    ref = torch.rand(8, 16)
    assert check_output(ref + 1e-4, ref, atol=1e-2, rtol=1e-2) == pytest.approx(1e-4, rel=1e-2)


def test_integer_outputs_must_match_exactly():
    """An index one off is a wrong answer, whatever rtol * index allows (argmax, argmin)."""
    ref = torch.arange(200, 300).reshape(4, 25)
    assert verdict(ref.clone(), ref)[0] == "ok"
    off = ref.clone()
    off[1, 2] += 1
    cls, feedback = verdict(off, ref)
    assert cls == "output_mismatch" and "exact match" in feedback and "(1, 2)" in feedback


@pytest.mark.parametrize("case", ["match", "mismatch", "nan"])
def test_full_size_outputs_are_compared_in_their_dtype_with_the_same_verdicts(case):
    """At and above 2**24 elements the comparison stays in the output's dtype (GiB tensors)."""
    ref = torch.rand(1 << 24)
    out = ref + 1e-3
    if case == "mismatch":
        out[12345] += 1.0
    if case == "nan":
        out[777] = float("nan")
    try:
        worst = check_output(out, ref, atol=1e-2, rtol=1e-2)
        cls = "ok"
    except StageFailure as failure:
        cls, feedback = failure.error_class, failure.feedback
    if case == "match":
        assert cls == "ok" and worst == pytest.approx(1e-3, rel=1e-2)
    elif case == "mismatch":
        assert cls == "output_mismatch" and "(12345,)" in feedback and "1 of 16777216" in feedback
    else:
        assert cls == "non_finite" and "(777,)" in feedback


def test_first_mismatch_names_index_expected_and_actual():
    ref = torch.zeros(4, 5)
    out = ref.clone()
    out[2, 3] = 0.5
    cls, feedback = verdict(out, ref)
    assert cls == "output_mismatch"
    assert "(2, 3)" in feedback and "got 0.5" in feedback and "expected 0" in feedback


@pytest.mark.parametrize("out, cls", [
    (torch.zeros(4, 6), "shape_mismatch"),
    (torch.zeros(4, 5, dtype=torch.float64), "dtype_mismatch"),
    (torch.full((4, 5), float("nan")), "non_finite"),
    (torch.full((4, 5), float("inf")), "non_finite"),
    ((torch.zeros(4, 5), torch.zeros(4, 5)), "shape_mismatch"),
    ([1.0, 2.0], "not_a_tensor"),
])
def test_structural_failures_are_classified(out, cls):
    assert verdict(out, torch.zeros(4, 5))[0] == cls


def test_tensor_subclasses_are_not_accepted():
    class Pretender(torch.Tensor):
        pass
    ref = torch.zeros(3)
    assert verdict(ref.clone().as_subclass(Pretender), ref)[0] == "not_a_tensor"


def test_default_tolerance_is_atol_plus_rtol_times_reference():
    ref = torch.full((10,), 100.0)
    assert verdict(ref + 1.0, ref)[0] == "ok"  # 1.0 <= 0.01 + 0.01 * 100
    assert verdict(ref + 1.05, ref)[0] == "output_mismatch"


def test_softmax_and_frobenius_tighten_atol_to_the_output_scale():
    ref = torch.full((4, 1000), 1e-3)
    atol, rtol = tolerances(SOFTMAX, ref, 1e-2, 1e-2)
    assert atol == pytest.approx(1e-8) and rtol == 1e-2
    assert tolerances(RELU, ref, 1e-2, 1e-2) == (1e-2, 1e-2)
    signed = torch.tensor([-5e-3, 1e-3])  # the scale is the largest magnitude, either sign
    assert tolerances(FROBENIUS, signed, 1e-2, 1e-2)[0] == pytest.approx(5e-8)


def test_half_outputs_are_normalised_within_tolerance():
    ref = torch.softmax(torch.rand(4, 4096), dim=1)
    assert verdict(ref.half(), ref.half(), SOFTMAX)[0] == "ok"
    assert verdict((ref * 1.005).half(), ref.half(), SOFTMAX, rtol=1e-2)[0] == "normalization"


def test_zeros_pass_softmax_under_the_old_tolerance_but_not_now():
    ref = torch.softmax(torch.rand(4, 4096), dim=1)  # entries ~2.4e-4, far below atol=1e-2
    zeros = torch.zeros_like(ref)
    assert verdict(zeros, ref, SOFTMAX)[0] == "output_mismatch"
    assert verdict(zeros, ref, task_id="level1/99_Other")[0] == "ok"  # what the old rule allowed


def test_softmax_rows_must_sum_to_one_and_be_nonnegative():
    ref = torch.softmax(torch.rand(4, 64), dim=1)
    shifted = ref * 1.005  # inside rtol, but rows sum to 1.005
    assert verdict(shifted, ref, SOFTMAX, rtol=1e-2)[0] == "normalization"
    negative = ref.clone()
    negative[0, 0] = -ref[0, 0] * 1e-3
    assert verdict(negative, ref, SOFTMAX, atol=1.0, rtol=2.0)[0] == "normalization"
    assert verdict(ref.clone(), ref, SOFTMAX)[0] == "ok"


def test_frobenius_output_must_have_unit_norm():
    x = torch.rand(8, 32)
    ref = x / torch.linalg.vector_norm(x)
    assert verdict(ref.clone(), ref, FROBENIUS)[0] == "ok"
    assert verdict(ref * 1.005, ref, FROBENIUS)[0] == "normalization"
    assert verdict(torch.zeros_like(ref), ref, FROBENIUS)[0] == "output_mismatch"


def test_written_inputs_are_detected():
    x = torch.rand(5)
    saved = [x.clone()]
    x[0] = -1.0
    with pytest.raises(StageFailure) as err:
        check_inputs_unchanged([x], saved, "trial")
    assert err.value.error_class == "input_mutated"


def test_two_runs_must_agree():
    a = torch.rand(100)
    check_deterministic(a, a + 1e-5, atol=1e-2, rtol=1e-2, label="t")
    with pytest.raises(StageFailure) as err:
        check_deterministic(a, torch.rand(100) + 5, atol=1e-2, rtol=1e-2, label="t")
    assert err.value.error_class == "nondeterministic"


def make_inputs():
    return [torch.rand(4, 8)]


@pytest.mark.parametrize("task_id, labels", [
    (RELU, ["signed inputs in [-100, 100], dense near 0", "all-zero inputs"]),
    (SOFTMAX, ["constant inputs", "row-dependent peaked inputs", "rows shifted by 100 to 160",
               SPREAD_LABEL]),
    (ARGMAX, [TIE_LABEL, LEVELS_LABEL, AWAY_LABEL]),
    (MIN, [AWAY_LABEL]),
    (LAYERNORM, [SMALL_LABEL, OFFSET_LABEL, LARGE_LABEL]),
    (FROBENIUS, ["constant inputs", "signed, scaled inputs", "sparse signed inputs",
                 f"signed inputs in [-{LARGE_SCALE:g}, {LARGE_SCALE:g}]"]),
    ("level1/1_Square_matrix_multiplication_", []),
])
def test_special_tasks_get_their_extra_trials(task_id, labels):
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task_id))
    assert [t.label for t in trials[5:]] == labels
    assert len(trials) == trial_count(5, task_id)
    for label in labels:
        assert label in describe_extra_inputs(task_id)
    by_label = {t.label: t.inputs[0] for t in trials}
    if task_id == RELU:
        signed = by_label["signed inputs in [-100, 100], dense near 0"]
        assert signed.min() < 0 < signed.max() and signed.abs().max() <= 100
        assert not by_label["all-zero inputs"].any()
        assert all(t.inputs[0].shape == (4, 8) for t in trials)
    if task_id == SOFTMAX:
        peaked = by_label["row-dependent peaked inputs"]
        assert len(set(peaked.argmax(dim=1).tolist())) > 1  # peaks move between rows
        assert (by_label["constant inputs"] == 0.75).all()
        shifted = by_label["rows shifted by 100 to 160"]
        assert shifted.min() >= 100 and shifted.max() < 161  # exp overflows past 88.7
        assert len(set(shifted.floor().div(10).amin(dim=1).tolist())) > 1  # shifts differ by row
        spread = by_label[SPREAD_LABEL]
        assert (spread.amax(dim=1) == 120).all() and spread.amin(dim=1).max() < 0
        assert ((spread == 120).sum(dim=1) == 1).all() and (spread[spread < 120] <= 0).all()
    if task_id == ARGMAX:  # a maximum started at 0 is wrong on every column
        away = by_label[AWAY_LABEL]
        assert (away <= -AWAY_SPAN[0]).all() and (away >= -AWAY_SPAN[1]).all()
    if task_id == MIN:
        assert (by_label[AWAY_LABEL] >= AWAY_SPAN[0]).all() and (by_label[AWAY_LABEL] <= AWAY_SPAN[1]).all()
    if task_id == LAYERNORM:
        assert by_label[OFFSET_LABEL].min() >= OFFSET and by_label[OFFSET_LABEL].max() < OFFSET + 1
        large = by_label[LARGE_LABEL]
        assert large.min() >= 0 and LARGE_SCALE / 2 < large.max() < LARGE_SCALE
    if task_id == FROBENIUS:
        scaled = by_label["signed, scaled inputs"]
        assert scaled.min() < -10 and scaled.max() > 10 and scaled.abs().max() <= 100
    for trial in trials:  # made again from their seed: the same values
        assert all(torch.equal(a, b) for a, b in zip(trial.inputs, trial.regenerate()))


def test_a_task_without_a_family_gets_its_own_inputs_with_random_signs_where_the_profile_allows():
    """Every other task's inputs come from torch.rand, in [0, 1): a GEMM+ReLU that skipped the
    columns its weights kept below zero for such inputs passed every trial (red-team pass 48).
    The profile's `signed_trial` adds the task's own values with random signs, checked with the
    cancelling tolerance (signed sums cancel), made again exactly from the seed."""
    task = "level2/76_Gemm_Add_ReLU"
    plain = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task))
    assert len(plain) == 5 == trial_count(5, task)
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task, signed=True))
    assert len(trials) == 6 == trial_count(5, task, signed=True)
    signed = trials[-1]
    assert signed.label == "the task's own inputs with random signs, 4x their size"
    assert signed.cancelling
    x = signed.inputs[0]
    assert x.min() < 0 < x.max() and x.abs().max() < 4
    same_seed = generate(make_inputs, torch.device("cpu"), derived_seed(0, EXTRA_SEED))[0]
    assert torch.equal(x.abs(), 4 * same_seed) and 0.2 < float((x < 0).float().mean()) < 0.8
    assert torch.equal(x, signed.regenerate()[0])
    assert "random signs" in describe_extra_inputs(task)
    # a family keeps its own trials; an insensitive task its scaled ones
    assert [t.label for t in correctness_trials(make_inputs, torch.device("cpu"), 0, 5, RELU,
                                                signed=True)][5:] == ["signed inputs in [-100, 100], dense near 0",
                                                                      "all-zero inputs"]
    assert "scaled" in list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task,
                                               insensitive=True, signed=True))[-1].label


def test_the_profile_gives_the_signed_trial_only_where_the_reference_is_finite_and_stable():
    from server.evaluation.pipeline import _signed_trial_usable
    from server.evaluation.protocol import EvalRequest

    def request(task_id):
        return EvalRequest(code="", reference_source="", task_id=task_id)

    class Log(torch.nn.Module):  # NaN on negative inputs: no kernel can be asked to match it
        def forward(self, x):
            return torch.log(x)
    cpu = torch.device("cpu")
    with torch.no_grad():  # as the profile runs it
        assert _signed_trial_usable(request("level2/76_Gemm_Add_ReLU"), make_inputs, torch.nn.Linear(8, 4), cpu)
        assert not _signed_trial_usable(request("level2/76_Gemm_Add_ReLU"), make_inputs, Log(), cpu)
        assert not _signed_trial_usable(request(RELU), make_inputs, torch.nn.ReLU(), cpu)  # its family's
        assert not _signed_trial_usable(request("level2/76_Gemm_Add_ReLU"),
                                        lambda: [torch.randint(0, 4, (4, 8))], torch.nn.Identity(), cpu)


def test_sparse_inputs_are_mostly_zero_and_signed():
    trials = list(correctness_trials(lambda: [torch.rand(256, 256)], torch.device("cpu"), 0, 1,
                                     FROBENIUS))
    sparse = {t.label: t.inputs[0] for t in trials}["sparse signed inputs"]
    nonzero = sparse[sparse != 0]
    assert 0.002 < nonzero.numel() / sparse.numel() < 0.03
    assert nonzero.min() < 0 < nonzero.max() and nonzero.abs().max() <= 2


SPIKED = "with large spikes (one per normalised group)"


def test_the_last_random_trial_of_frobenius_carries_four_spikes():
    """The task's own values but for four elements, one in each quarter of the tensor, that
    carry about as much of the squared norm as all the others (one to 2.25 times); made again
    exactly from the seed."""
    trials = list(correctness_trials(lambda: [torch.rand(256, 256)], torch.device("cpu"), 0, 5,
                                     FROBENIUS))
    assert [t.label for t in trials][3:5] == ["random inputs #4", f"random inputs #5 {SPIKED}"]
    x = trials[4].inputs[0]
    spikes = (x > 1).reshape(-1).nonzero().reshape(-1)
    assert [int(i) // (x.numel() // 4) for i in spikes] == [0, 1, 2, 3]
    rest = x.reshape(-1)[(x <= 1).reshape(-1)]
    assert rest.min() >= 0 and 0.4 < float(x[x > 1].square().sum() / x.square().sum()) < 0.75
    assert torch.equal(x, trials[4].regenerate()[0])
    assert f"timed calls {SPIKED}" in describe_extra_inputs(FROBENIUS)
    assert not (trials[3].inputs[0] > 1).any()


@pytest.mark.parametrize("task_id, shape, group_dims", [
    ("level1/39_L2Norm_", (64, 4096), 1),  # every row
    ("level1/34_InstanceNorm", (2, 8, 32, 32), 2),  # every (sample, channel) instance
    ("level1/40_LayerNorm", (4, 8, 16, 16), 3),  # every sample
])
def test_every_normalised_group_carries_a_spike(task_id, shape, group_dims):
    """One spike per group, about as large in square as the rest of it and of a height of its
    own (red-team pass 57: spikes of one height, learned once, could be added to a norm from a
    sample): a kernel that samples and then repairs the groups it finds spiked repairs all of
    them, which is the honest cost."""
    trials = list(correctness_trials(lambda: [torch.rand(*shape)], torch.device("cpu"), 1, 2,
                                     task_id))
    x = trials[1].inputs[0]
    groups = x.reshape(-1, math.prod(shape[-group_dims:]))
    assert ((groups > 1).sum(dim=1) == 1).all()
    share = (groups * (groups > 1)).square().sum(dim=1) / groups.square().sum(dim=1)
    assert ((0.4 < share) & (share < 0.75)).all()  # spikes 1 to 1.5 times the rest's root
    assert groups.amax(dim=1).unique().numel() == groups.shape[0]  # each its own height
    assert torch.equal(x, trials[1].regenerate()[0])


def sampled_frobenius(x, every=16):
    """A shortcut: the norm estimated from one element in `every` (6 % of the reads)."""
    flat = x.reshape(-1)
    return x / torch.sqrt(flat[::every].square().sum() * every)


def test_a_norm_estimated_from_a_sample_fails_on_the_spiked_trial_only():
    """Large enough that sampling passes the task's own random inputs (the estimate is within
    0.1 %), as it would at full size (1.9e9 elements) with a far smaller sample; the spikes are
    what a sample misses. (The sparse trial catches it here, not at full size.)"""
    # (a draw within tolerance: the estimate is off by ~0.1 % here, at the normalisation check's
    # edge, and 9 draws in 20 pass it; the spikes refuse it in every draw. At 4096² torch's own
    # float32 norm on the CPU misses by 0.6 % on constant inputs, so the test stays this size.)
    trials = list(correctness_trials(lambda: [torch.rand(2048, 2048)], torch.device("cpu"), 0,
                                     3, FROBENIUS))
    for trial in trials:
        x = trial.inputs[0]
        ref = x / torch.linalg.vector_norm(x)
        assert verdict(x / torch.linalg.vector_norm(x), ref, FROBENIUS)[0] == "ok"
        if trial.label.startswith("random inputs"):
            got = verdict(sampled_frobenius(x), ref, FROBENIUS)[0]
            assert got == ("output_mismatch" if "spikes" in trial.label else "ok"), trial.label
    assert sum("spikes" in t.label for t in trials) == 1


def sampled_l2_rows(x, every=16):
    return x / torch.sqrt(x[:, ::every].square().sum(dim=1, keepdim=True) * every)


def sampled_layer_norm(x, every=16):
    flat = x.reshape(x.shape[0], -1)[:, ::every]
    mean = flat.mean(dim=1).reshape(-1, 1, 1, 1)
    var = flat.var(dim=1, unbiased=False).reshape(-1, 1, 1, 1)
    return (x - mean) / torch.sqrt(var + 1e-5)


@pytest.mark.parametrize("task_id, shape, honest, shortcut", [
    ("level1/39_L2Norm_", (64, 65536), lambda x: x / torch.norm(x, p=2, dim=1, keepdim=True),
     sampled_l2_rows),
    ("level1/40_LayerNorm", (2, 16, 256, 256),
     lambda x: torch.nn.functional.layer_norm(x, x.shape[1:]), sampled_layer_norm),
])
def test_statistics_from_a_sample_pass_the_tasks_inputs_and_fail_the_spiked_ones(
        task_id, shape, honest, shortcut):
    """Normalisations whose statistics a kernel could estimate from a few percent of each group:
    within tolerance on the task's own [0, 1) inputs, far off where a spike dominates a group."""
    trials = list(correctness_trials(lambda: [torch.rand(*shape)], torch.device("cpu"), 0, 2,
                                     task_id))  # (20 of 20 draws within tolerance at these sizes)
    from server.evaluation.inputs import EPS_TASKS, LARGE_TASKS, OFFSET_TASKS
    # and the small-values, offset and large-values trials, which a sample passes too
    assert [t.label for t in trials[2:]] == ([SMALL_LABEL] * (task_id in EPS_TASKS)
                                             + [OFFSET_LABEL] * (task_id in OFFSET_TASKS)
                                             + [LARGE_LABEL] * (task_id in LARGE_TASKS))
    trials = trials[:2]
    assert [t.label for t in trials] == ["random inputs #1", f"random inputs #2 {SPIKED}"]
    for trial in trials:
        x = trial.inputs[0]
        ref = honest(x)
        assert verdict(ref.clone(), ref, task_id)[0] == "ok"
        expected = "output_mismatch" if "spikes" in trial.label else "ok"
        assert verdict(shortcut(x), ref, task_id)[0] == expected, trial.label


MAX = "level1/49_Max_reduction_over_a_dimension"


def max_stopping_near_the_bound(x, bound=0.965):
    """Red-team pass 61's shortcut: a column whose value reached `bound` (its inputs assumed below
    1) stops being read and gets the middle of [seen, 1), within tolerance of its true max."""
    out = torch.empty(x.shape[0], x.shape[2])
    for b in range(x.shape[0]):
        for j in range(x.shape[2]):
            seen = -math.inf
            for value in x[b, :, j].tolist():
                seen = max(seen, value)
                if 0 <= seen < 1 and seen >= bound:
                    seen = (seen + 1) / 2
                    break
            out[b, j] = seen
    return out


@pytest.mark.parametrize("task_id, sign", [(MAX, 1), (MIN, -1)])
def test_reduced_columns_get_spikes_beyond_the_range_of_secret_count_and_height(task_id, sign):
    """A max (min) reduction's spiked trial: spikes above (below) the [0, 1) range, one per row
    of the last dimension, so a column reduced over dimension 1 holds none, one or several, each
    of its own height: no value read says the rest of a column cannot exceed it."""
    trials = list(correctness_trials(lambda: [torch.rand(16, 64, 63)], torch.device("cpu"), 2, 2,
                                     task_id))
    assert trials[1].label == ("random inputs #2 with large spikes beyond the values' range "
                               "(below it for a minimum) at secret positions, about one per "
                               "reduced column, of secret heights")
    x = trials[1].inputs[0]
    spikes = (x * sign > 1)
    assert (spikes.sum(dim=2) == 1).all()  # one per row of the last dimension
    per_column = spikes.sum(dim=1).flatten().bincount()
    assert per_column[0] > 200 and per_column[1] > 200 and per_column[2:].sum() > 100
    heights = (x * sign)[spikes]
    assert heights.unique().numel() == heights.numel() and heights.min() > 2
    assert not (trials[0].inputs[0] * sign > 1).any()
    assert torch.equal(x, trials[1].regenerate()[0])
    assert "timed calls with large spikes beyond the values' range" in describe_extra_inputs(task_id)


def test_a_max_that_stops_at_the_ranges_bound_fails_the_spiked_trial_only():
    trials = list(correctness_trials(lambda: [torch.rand(16, 64, 63)], torch.device("cpu"), 0, 3,
                                     MAX))
    for trial in trials:
        x = trial.inputs[0]
        got = verdict(max_stopping_near_the_bound(x), x.amax(dim=1), MAX)
        assert got[0] == ("output_mismatch" if "spikes" in trial.label else "ok"), trial.label


def test_extra_inputs_keep_a_generators_integer_tensors():
    """A generator with index tensors runs for real (their values matter); floats are replaced."""
    def with_indices():
        return [torch.rand(4, 8), torch.randint(0, 8, (4,))]

    trials = list(correctness_trials(with_indices, torch.device("cpu"), 0, 1, RELU))
    trial = {t.label: t for t in trials}["signed inputs in [-100, 100], dense near 0"]
    floats, indices = trial.inputs
    assert floats.min() < 0 and indices.dtype == torch.int64
    assert 0 <= indices.min() and indices.max() < 8
    assert torch.equal(indices, trial.regenerate()[1])


def test_random_trials_differ_from_each_other():
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, None))
    assert not torch.equal(trials[0].inputs[0], trials[1].inputs[0])


def test_two_runs_with_nan_in_the_same_places_agree():
    """NaN is the comparison's concern (non_finite), not the determinism check's."""
    a = torch.rand(100)
    a[3] = float("nan")
    check_deterministic(a, a.clone(), atol=1e-2, rtol=1e-2, label="t")
    b = a.clone()
    b[5] = float("nan")
    with pytest.raises(StageFailure) as err:
        check_deterministic(a, b, atol=1e-2, rtol=1e-2, label="t")
    assert err.value.error_class == "nondeterministic" and "(5,)" in err.value.feedback


@pytest.mark.parametrize("out_value, expected", [
    (float("inf"), "ok"),  # equal infinities match
    (1.0, "output_mismatch"),  # a finite value where the reference is infinite
    (float("-inf"), "output_mismatch"),
])
def test_infinite_reference_values(out_value, expected):
    ref = torch.rand(8, 8)
    ref[2, 3] = float("inf")
    out = ref.clone()
    out[2, 3] = out_value
    cls, feedback = verdict(out, ref)
    assert cls == expected, feedback
    if expected != "ok":
        assert "(2, 3)" in feedback


def test_integer_results_must_repeat_exactly():
    a = torch.arange(100)
    check_deterministic(a, a.clone(), atol=1e-2, rtol=1e-2, label="t")
    b = a.clone()
    b[60] += 1
    with pytest.raises(StageFailure) as err:
        check_deterministic(a, b, atol=1e-2, rtol=1e-2, label="t")
    assert err.value.error_class == "nondeterministic"


class _Washout(torch.nn.Module):
    """An output that barely depends on [0, 1) inputs but does on large ones."""

    def forward(self, x):
        return 0.5 + 1e-4 * x.sum(dim=-1, keepdim=True)


class _Overflowing(_Washout):
    def forward(self, x):
        return 0.5 + 1e-4 * torch.exp(x).sum(dim=-1, keepdim=True)  # inf at inputs of 100


@pytest.mark.parametrize("model, task, flagged", [
    (_Washout(), None, True),
    (torch.nn.ReLU(), None, False),  # depends on its inputs
    (_Overflowing(), None, False),  # the scaled trial would ask for an overflow
    (_Washout(), "level1/23_Softmax", False),  # its family has inputs of its own
])
def test_tasks_whose_outputs_ignore_their_inputs_are_found(model, task, flagged):
    from server.evaluation.pipeline import _insensitive
    from server.evaluation.protocol import EvalRequest

    req = EvalRequest(code="", reference_source="", task_id=task)
    with torch.no_grad():
        assert _insensitive(req, lambda: [torch.rand(8, 64)], model, torch.device("cpu")) is flagged
    assert trial_count(5, task, flagged) == (6 if flagged else trial_count(5, task))


def test_the_scaled_trial_tolerates_rounding_of_sums_that_cancel_but_not_wrong_outputs():
    """On signed inputs a matmul's elements are sums of large terms; the few that cancel to near
    zero carry the terms' rounding error (KernelBench level 1, 6: -133 among ~5e6, off by 10 in
    float64 against eager float32, kb_sweep on the H200). The scaled trial's atol is rtol times
    the output's RMS; a wrong output still fails it."""
    gen = torch.Generator().manual_seed(0)
    expected = torch.randn(64, 64, generator=gen) * 5e6
    expected[3, 7] = -133.4
    honest = expected + torch.randn(64, 64, generator=gen) * 10  # ~2e-6 of the RMS
    with pytest.raises(StageFailure):
        check_output(honest, expected, atol=1e-2, rtol=1e-2)
    check_output(honest, expected, atol=1e-2, rtol=1e-2, cancelling=True)
    for wrong in (torch.full_like(expected, 1.3e5), expected * 1.05, -expected):
        with pytest.raises(StageFailure) as err:
            check_output(wrong, expected, atol=1e-2, rtol=1e-2, cancelling=True)
        assert err.value.error_class == "output_mismatch"
    trials = list(correctness_trials(lambda: [torch.rand(4, 8)], torch.device("cpu"), 0, 3, None,
                                     insensitive=True))
    assert [t.cancelling for t in trials] == [False, False, False, True]



def test_a_mismatch_of_tl_dot_kernels_on_a_gpu_says_they_run_in_tf32():
    from server.evaluation.pipeline import TF32_HINT, with_precision_hint

    failure = StageFailure("correctness", "output_mismatch", "random inputs #1: 3 of 1024 differ")
    gpu, cpu = torch.device("cuda", 0), torch.device("cpu")
    dot = "acc += tl.dot(a, b)"
    assert TF32_HINT in with_precision_hint(failure, dot, gpu).feedback
    for source, device in ((dot, cpu), ("tl.dot(a, b, input_precision='ieee')", gpu),
                           ("x = tl.sum(a)", gpu)):
        assert with_precision_hint(failure, source, device) is failure
    other = StageFailure("correctness", "non_finite", "NaN")
    assert with_precision_hint(other, dot, gpu) is other


def test_the_reference_is_timed_without_cyclic_garbage_collection():
    """Every candidate's evaluation process stops the cyclic collector; the reference's timing
    rounds run so too (a launch-bound reference's time is its host's, collections included:
    the reference timed as a candidate differed from its cached time by -34 % to +72 % on deep
    KernelBench level 3 networks, kb_sweep on the H200), and the collector is back afterwards."""
    import gc

    from server.evaluation.pipeline import _time_reference

    seen = []

    class Recorder(torch.nn.Module):
        def forward(self, x):
            seen.append(gc.isenabled())
            return x * 2

    assert gc.isenabled()
    _time_reference(Recorder(), [torch.rand(4)], torch.device("cpu"), 3)
    assert seen and not any(seen) and gc.isenabled()


def test_rms_reads_the_finite_values_without_selecting_them_first():
    """The scale of a cancelling output: one reduction when every value is finite (no buffers of
    the output's size at full size); the finite values alone otherwise, as before."""
    import math

    from server.evaluation.correctness import rms
    t = torch.tensor([3.0, -4.0, 0.0, 12.0])
    assert rms(t) == pytest.approx(13.0 / 2.0)
    assert rms(torch.tensor([3.0, float("nan"), -4.0, float("inf")])) == pytest.approx(5.0 / math.sqrt(2))
    assert rms(torch.tensor([float("nan")])) == 0.0 and rms(torch.empty(0)) == 0.0
    big = torch.full((4,), 3e30)  # squares past float32's range; the float64 sum holds them
    assert rms(big) == pytest.approx(3e30, rel=1e-6)


def test_index_tasks_get_a_trial_whose_elements_all_tie():
    """The task's random inputs never tie; an argmax keeping the last of equal maxima passed
    (red-team pass 53). A constant trial, after the random-sign one, is disclosed in the prompt."""
    from server.evaluation.inputs import INDEX_TASKS, TIE_LABEL

    task = "level1/51_Argmax_over_a_dimension"
    assert task in INDEX_TASKS and TIE_LABEL in describe_extra_inputs(task)
    make_inputs = lambda: [torch.rand(4, 8, 5)]  # noqa: E731
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task, signed=True))
    assert [t.label for t in trials[5:7]] == ["the task's own inputs with random signs, 4x their size", TIE_LABEL]
    x = trials[6].inputs[0]
    assert x.shape == (4, 8, 5) and bool((x == x.reshape(-1)[0]).all()) and not trials[6].cancelling
    assert trial_count(5, task, signed=True) == 9 and trial_count(5, "level1/19_ReLU_other") == 5


def test_index_tasks_get_a_trial_whose_extremes_tie_among_other_values():
    """Red-team pass 66: an argmax keeping the last of tied maxima unless its column was
    constant (max == min) passed the constant trial. One trial draws every element from a few
    random levels: most columns hold their extreme more than once, among other values."""
    from server.evaluation.inputs import INDEX_TASKS, LEVELS, LEVELS_LABEL

    task = "level1/51_Argmax_over_a_dimension"
    assert task in INDEX_TASKS and LEVELS_LABEL in describe_extra_inputs(task)
    make_inputs = lambda: [torch.rand(16, 64, 63)]  # noqa: E731
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task, signed=True))
    levels = next(t for t in trials if t.label == LEVELS_LABEL)
    assert not levels.cancelling
    x = levels.inputs[0]
    assert x.shape == (16, 64, 63) and 1 < x.unique().numel() <= LEVELS
    assert 0 <= float(x.min()) and float(x.max()) < 1
    top = x.amax(dim=1, keepdim=True)
    tied = (x == top).sum(dim=1) > 1  # columns whose maximum is not unique
    varied = x.amin(dim=1) < top.squeeze(1)  # ... and not constant
    assert float((tied & varied).float().mean()) > 0.5
    assert torch.equal(x, levels.regenerate()[0])
    other = list(correctness_trials(make_inputs, torch.device("cpu"), 1, 5, task, signed=True))[-1]
    assert not torch.equal(other.inputs[0], x)  # levels and positions drawn per trial


@pytest.mark.parametrize("task", ["level1/36_RMSNorm_", "level1/40_LayerNorm", "level1/33_BatchNorm"])
def test_normalisations_with_an_eps_get_a_trial_of_small_values(task):
    """Red-team pass 66: RMSNorm and LayerNorm kernels without eps passed every trial (the
    draws' mean square is ~1/3, where eps moves the output by ~1e-5 of itself). One trial scales
    the task's own values by SMALL_SCALE, where the mean square lies far below eps (1e-5)."""
    from server.evaluation.inputs import EPS_TASKS, LARGE_TASKS, OFFSET_TASKS, SMALL_SCALE

    assert task in EPS_TASKS and SMALL_LABEL in describe_extra_inputs(task)
    make_inputs = lambda: [torch.rand(2, 4, 8, 8)]  # noqa: E731
    trials = list(correctness_trials(make_inputs, torch.device("cpu"), 0, 5, task, signed=True))
    assert len(trials) == trial_count(5, task, signed=True) == 7 + (task in OFFSET_TASKS) + (task in LARGE_TASKS)
    small = next(t for t in trials if t.label == SMALL_LABEL)
    assert not small.cancelling
    draw = generate(make_inputs, torch.device("cpu"), derived_seed(0, EXTRA_SEED + 1))[0]
    assert torch.equal(small.inputs[0], draw * SMALL_SCALE)
    assert float(small.inputs[0].pow(2).mean()) < 1e-6 and torch.equal(small.inputs[0], small.regenerate()[0])
    assert trial_count(5, "level1/1_Square_matrix_multiplication_", signed=True) == 6
