"""The roofline as users see it: in results of every evaluator, and the impossible-timing check."""

from __future__ import annotations

import pytest

from server.evaluation import scoring
from server.evaluation.protocol import EvalRequest, EvalResult
from server.evaluation.stages import StageFailure
from server.evaluators import CpuEvaluator, MockEvaluator
from tests.conftest import BUNDLED, kernel_source

MATMUL = "level1/1_Square_matrix_multiplication_"


def source(task_id: str) -> str:
    return (BUNDLED / f"{task_id}.py").read_text()


def test_mock_evaluator_shows_the_nominal_roof_and_says_timings_are_fake():
    ev = MockEvaluator(nominal_gpu="L4")
    try:
        result = ev.evaluate(kernel_source("legit", "square_matmul"), source(MATMUL), task_id=MATMUL)
    finally:
        ev.close()
    n = 128  # the bundled task's size
    assert result.stage == "scored" and "MOCK" in result.feedback and not result.timing_meaningful
    assert result.roofline["flops"] == 2 * n**3 and result.roofline["bytes"] == 12 * n**2
    assert result.roofline["roofline_gpu"].startswith("L4 (nominal")
    assert result.roofline["roofline_frac"] is None  # no real timing to compare


def test_cpu_evaluator_roofline_reward_mode_pays_correctness_only():
    ev = CpuEvaluator(reward_mode="roofline")
    try:
        result = ev.evaluate(kernel_source("legit", "relu"), source("level1/19_ReLU"),
                             task_id="level1/19_ReLU")
    finally:
        ev.close()
    assert result.correct and result.reward == pytest.approx(0.3)
    assert result.roofline["bound"] == "memory" and result.roofline["arithmetic_intensity"] == 0


def scored(runtime_ms: float, reject: float = 0.8) -> EvalResult:
    # A 256^3 fp32 matmul on an H100 SXM: intensity 42.7 FLOP/B is under the ridge, memory-bound.
    profile = {"flops": 2 * 256**3, "bytes": 12 * 256**2, "dtype": "float32", "ref_runtime_ms": 1.0,
               "device_name": "cpu"}
    req = EvalRequest(code="", reference_source="", nominal_gpu="H100 SXM", roofline_reject=reject)
    result = EvalResult(stage="timing", correct=True, runtime_ms=runtime_ms, ref_runtime_ms=1.0,
                        speedup=1.0 / runtime_ms, timing_meaningful=True, max_abs_error=0.0)
    scoring.score(req, profile, result)
    return result


def test_the_host_recomputes_speedup_and_reward_from_its_own_reference_time():
    """A child reporting a huge reward or a fake reference time gains nothing."""
    profile = {"flops": 0, "bytes": 4096, "dtype": "float32", "ref_runtime_ms": 2.0,
               "device_name": "NVIDIA H200"}
    forged = EvalResult(stage="scored", correct=True, reward=3.3, runtime_ms=1.0, ref_runtime_ms=500.0,
                        speedup=500.0, timing_meaningful=True, max_abs_error=0.0)
    result = scoring.rescore(EvalRequest(code="", reference_source=""), profile, forged)
    assert result.speedup == pytest.approx(2.0) and result.reward == pytest.approx(0.3 + 1.0)
    impossible = EvalResult(stage="scored", correct=True, runtime_ms=1e-9, timing_meaningful=True,
                            max_abs_error=0.0)
    assert scoring.rescore(EvalRequest(code="", reference_source=""), profile,
                           impossible).error_class == "impossible_timing"


@pytest.mark.parametrize("runtime_ms", [float("nan"), float("inf"), 0.0, -1.0, "1.0", True, 1e-320])
@pytest.mark.parametrize("mode", ["speedup", "roofline"])
def test_a_report_with_an_unusable_runtime_earns_nothing(mode, runtime_ms):
    """A NaN runtime passed the positivity check and the roofline reward came out NaN
    (red-team pass 49): a report's runtime must be a positive finite number."""
    profile = {"flops": 0, "bytes": 4096, "dtype": "float32", "ref_runtime_ms": 2.0,
               "device_name": "NVIDIA H200"}
    forged = EvalResult(stage="scored", correct=True, runtime_ms=runtime_ms, timing_meaningful=True,
                        max_abs_error=0.0)
    result = scoring.rescore(EvalRequest(code="", reference_source="", reward_mode=mode), profile, forged)
    assert result.error_class == "tampering" and result.reward == 0.0 and not result.correct


def test_only_a_gpu_hosts_timings_are_paid_as_a_speedup():
    """On the cpu (and mock) evaluator timings mean nothing and a correct kernel earns 0.3; a
    report claiming a meaningful timing there was paid log2(speedup) against the host's CPU
    reference time, up to 3.3 (red-team pass 49)."""
    profile = {"flops": 2 * 128**3, "bytes": 12 * 128**2, "dtype": "float32",
               "ref_runtime_ms": 80.0, "device_name": "cpu"}
    forged = EvalResult(stage="scored", correct=True, runtime_ms=10.0, timing_meaningful=True,
                        max_abs_error=0.0, trials_passed=5, trials_total=5)
    for mode in ("speedup", "roofline"):
        req = EvalRequest(code="", reference_source="", reward_mode=mode)
        result = scoring.rescore(req, profile, EvalResult.from_dict(forged.to_dict()))
        assert result.reward == pytest.approx(0.3) and not result.timing_meaningful
        assert result.roofline["roofline_frac"] is None


def test_a_report_cannot_claim_the_evaluators_own_failure():
    """internal_error costs the agent no turn (up to max_turns an episode); a report carrying
    it beside a correct, scored result was paid and not counted (red-team pass 49). Only the
    host says the evaluator failed; a scored result carries no error class."""
    profile = {"flops": 0, "bytes": 4096, "dtype": "float32", "ref_runtime_ms": 2.0,
               "device_name": "NVIDIA H200"}
    for stage, correct in (("scored", True), ("correctness", False)):
        forged = EvalResult(stage=stage, correct=correct, error_class="internal_error",
                            runtime_ms=1.0, timing_meaningful=True, max_abs_error=0.0)
        result = scoring.rescore(EvalRequest(code="", reference_source=""), profile, forged)
        assert result.error_class == "tampering" and result.reward == 0.0
    scored_with_a_class = EvalResult(stage="scored", correct=True, error_class="timeout",
                                     runtime_ms=1.0, timing_meaningful=True, max_abs_error=0.0)
    result = scoring.rescore(EvalRequest(code="", reference_source=""), profile, scored_with_a_class)
    assert result.error_class is None and result.reward == pytest.approx(1.3)


def test_a_launch_bound_reference_is_said_on_every_scored_step_with_its_gpu_time():
    """The host's profile, not the child, says the reference is launch-bound; the note is
    given once however often the result is rescored, and the observation carries the GPU time."""
    from server.kernel_environment import _metadata

    profile = {"flops": 0, "bytes": 4096, "dtype": "float32", "ref_runtime_ms": 2.0,
               "device_name": "NVIDIA H200", "launch_bound": True, "ref_device_ms": 0.5}
    result = EvalResult(stage="scored", correct=True, runtime_ms=1.0, timing_meaningful=True,
                        max_abs_error=0.0)
    for _ in range(2):
        result = scoring.rescore(EvalRequest(code="", reference_source=""), profile, result)
    notes = [n for n in result.notes if n.startswith(scoring.LAUNCH_BOUND_NOTE)]
    assert len(notes) == 1 and "GPU work alone takes 0.5 ms" in notes[0]
    assert notes[0] in result.feedback and result.speedup == pytest.approx(2.0)
    assert _metadata(result)["ref_device_ms"] == 0.5
    plain = scoring.rescore(EvalRequest(code="", reference_source=""),
                            dict(profile, launch_bound=False),
                            EvalResult(stage="scored", correct=True, runtime_ms=1.0,
                                       timing_meaningful=True, max_abs_error=0.0))
    assert not any(n.startswith(scoring.LAUNCH_BOUND_NOTE) for n in plain.notes)


@pytest.mark.parametrize("task, median_ms, device_ms, issue_ms, expected", [
    # H200 figures (bench/results/2026-12-02-h200-s20-launch-bound-gru.log and s19's log)
    ("41_GRUBidirectional: issue outlasts device_only's spin", 101.1, 80.3, 102.1, True),
    ("42_GRUBidirectionalHidden", 133.6, 113.3, 145.5, True),
    ("40_GRUHidden: GPU work well below the median", 47.6, 34.1, 54.3, True),
    ("10_ResNet101", 14.0, 4.8, 14.6, True),
    ("11_VGG16: the GPU outlasts the host", 3.1, 3.1, 1.8, False),
    ("a few-µs kernel: its host issue hidden by the lead", 0.004, 0.004, 0.06, False),
    ("a 3 ms memory-bound kernel", 3.03, 3.02, 0.15, False),
])
def test_a_reference_is_launch_bound_when_its_gpu_waits_for_its_host(task, median_ms, device_ms,
                                                                     issue_ms, expected):
    from server.evaluation.pipeline import is_launch_bound

    assert is_launch_bound(median_ms, device_ms, issue_ms) is expected, task


def test_timings_below_the_floor_are_rejected_as_impossible():
    t_min = 12 * 256**2 / 3350e9 * 1e3
    assert scored(0.81 * t_min).roofline["roofline_frac"] == pytest.approx(1 / 0.81)
    with pytest.raises(StageFailure) as err:
        scored(0.79 * t_min)
    assert err.value.error_class == "impossible_timing" and "roofline floor" in err.value.feedback
    scored(0.5 * t_min, reject=0.4)  # the fraction is configurable


def test_a_16_bit_tensor_core_kernel_on_a_float32_task_is_not_refused_as_impossible():
    """Red-team pass 71: a float32 task's t_min is at the TF32 roof, but its kernels may compute
    on float16 operands (legit/matmul_fp16_tensor_cores), on tensor cores twice as fast. The
    README's worked example (KernelBench's 4096^3 fp32 matmul on an H200, t_min 0.278 ms) had
    refused 0.2 ms, 69 % of the float16 peak (cuBLAS-class), as impossible; a timing beyond
    that peak still is."""
    n = 4096
    profile = {"flops": 2 * n**3, "bytes": 12 * n**2, "dtype": "float32", "ref_runtime_ms": 3.0,
               "device_name": "NVIDIA H200"}

    def report(runtime_ms):
        result = EvalResult(stage="scored", correct=True, runtime_ms=runtime_ms, timing_meaningful=True,
                            max_abs_error=0.0)
        return scoring.rescore(EvalRequest(code="", reference_source=""), profile, result)

    fp16 = report(0.2)
    assert fp16.roofline["t_min_ms"] == pytest.approx(2 * n**3 / 494.5e12 * 1e3)  # the TF32 roof
    assert fp16.error_class is None and fp16.reward == pytest.approx(0.3 + 3.0)  # 15x: capped
    beyond = report(0.8 * 2 * n**3 / 989.5e12 * 1e3 * 0.99)  # past the float16 peak, with the slack
    assert beyond.error_class == "impossible_timing" and "16-bit tensor-core" in beyond.feedback
