"""Stage 5, scored: the roofline figures, the impossible-timing check and the reward."""

from __future__ import annotations

import math

import torch

from . import roofline
from .protocol import EvalRequest, EvalResult
from .reward import compute_reward
from .stages import SCORED, TIMING, StageFailure


def device_name(device: torch.device) -> str:
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"


def gpu_spec(req: EvalRequest, profiled_on: str):
    """The GPU whose roof applies: the one the reference was profiled on (by name, so the host
    never initialises CUDA), or the nominal one off a GPU."""
    if profiled_on not in ("cpu", "mock"):
        return roofline.detect_gpu(profiled_on)
    return roofline.nominal_gpu(req.nominal_gpu)


def score(req, profile, result: EvalResult) -> None:
    """Fill in the roofline and the reward of a correct result; refuse impossible timings."""
    spec = gpu_spec(req, profile["device_name"])
    dtype = getattr(torch, profile["dtype"])
    roof = roofline.roofline(profile["flops"], profile["bytes"], dtype, spec)
    meaningful = result.timing_meaningful
    result.roofline = {
        "bound": roof.bound,
        "arithmetic_intensity": roof.arithmetic_intensity,
        "t_min_ms": roof.t_min_ms,
        "roofline_frac": roofline.roofline_frac(roof.t_min_ms, result.runtime_ms) if meaningful else None,
        "ref_roofline_frac": roofline.roofline_frac(roof.t_min_ms, result.ref_runtime_ms) if meaningful else None,
        "roofline_gpu": roof.gpu + ("" if meaningful else " (nominal: timings not measured on it)"),
        "flops": roof.flops,
        "bytes": roof.bytes,
    }
    floor_ms = roofline.impossible_floor_ms(roof.flops, roof.bytes, spec)
    if meaningful and not roof.fallback and roofline.is_physically_impossible(
            result.runtime_ms, floor_ms, req.roofline_reject):
        raise StageFailure(TIMING, "impossible_timing", f"measured {result.runtime_ms:.4g} ms is below "
                           f"{req.roofline_reject} x the roofline floor {floor_ms:.4g} ms on {roof.gpu} "
                           "(the compulsory bytes at full bandwidth, the FLOPs at the 16-bit tensor-core "
                           "peak): physically impossible, so the work was not all done in the timed call")
    result.reward = compute_reward(
        req.reward_mode, True,
        speedup=result.speedup if meaningful else 1.0,
        t_min_ms=roof.t_min_ms,
        runtime_ms=result.runtime_ms if meaningful else None,
    )
    result.feedback = _success_feedback(result)


def mock_score(req, profile, result: EvalResult) -> None:
    """The mock evaluator: static checks were real; correctness is assumed, timings are fake."""
    result.stage, result.correct, result.timing_meaningful = SCORED, True, False
    result.runtime_ms = result.ref_runtime_ms = result.speedup = 1.0
    result.max_abs_error = 0.0
    score(req, profile, result)
    result.feedback = ("MOCK evaluator: static checks passed; correctness was NOT checked and the "
                       "timings are fake (speedup 1.0). Use the cpu or gpu evaluator for real results.")


LAUNCH_BOUND_NOTE = "Note: this task's reference is launch-bound on this GPU's host:"


def rescore(req: EvalRequest, profile: dict, result: EvalResult) -> EvalResult:
    """Recompute, in the worker host, what a correct result's reward follows from: the speedup
    against the host's own cached reference time, the roofline floor, the reward. A child that
    ran candidate code can report a runtime, but not its reward or the reference's time."""
    result.ref_device_ms = profile.get("ref_device_ms")  # the host's, never a child's
    if result.error_class == "internal_error":  # the host's verdict alone: it costs no turn
        return _failed(result, "tampering", "the evaluation process reported the evaluator's "
                       "own failure, which only the worker host reports")
    if not result.correct or result.stage != SCORED or req.mock:
        result.reward = result.reward if (result.correct and result.stage == SCORED) else 0.0
        return result
    result.error_class = None  # a scored result's: a child's error class would ride along
    result.timing_meaningful = bool(result.timing_meaningful) and _timed_on_a_gpu(profile)
    if result.timing_meaningful:
        if not _usable_runtime(result.runtime_ms, profile["ref_runtime_ms"]):
            return _failed(result, "tampering", "the reported runtime is not a positive number")
        result.ref_runtime_ms = profile["ref_runtime_ms"]
        result.speedup = result.ref_runtime_ms / result.runtime_ms
        if profile.get("launch_bound"):
            result.notes = [n for n in result.notes if not n.startswith(LAUNCH_BOUND_NOTE)] + [
                f"{LAUNCH_BOUND_NOTE} eager PyTorch's {result.ref_runtime_ms:.4g} ms is mostly its "
                f"host issuing kernels (its GPU work alone takes {result.ref_device_ms:.4g} ms), so "
                "that time, and speedups against it, move with the host's speed between steps "
                "(by 10-50 % on an H200 host)."]
    try:
        score(req, profile, result)
    except StageFailure as failure:
        return _failed(result, failure.error_class, failure.feedback)
    return result


def _timed_on_a_gpu(profile: dict) -> bool:
    """Whether this host's timings mean anything (its reference was timed on a GPU): a child
    that says its cpu or mock timing was meaningful would have it paid as a speedup."""
    return profile.get("device_name") not in (None, "cpu", "mock")


def _usable_runtime(runtime_ms, ref_ms: float) -> bool:
    """A positive finite runtime whose speedup is finite: NaN passed `<= 0` and made the
    roofline reward NaN; a denormal one made an infinite speedup (an Infinity strict JSON
    refuses)."""
    return (type(runtime_ms) in (int, float) and math.isfinite(runtime_ms) and runtime_ms > 0
            and math.isfinite(ref_ms / runtime_ms))


def _failed(result: EvalResult, error_class: str, feedback: str) -> EvalResult:
    result.stage, result.error_class, result.feedback = TIMING, error_class, feedback
    result.correct, result.reward = False, 0.0
    return result


def _success_feedback(r: EvalResult) -> str:
    text = f"correct on {r.trials_passed}/{r.trials_total} trials (max abs error {r.max_abs_error:.3g}). "
    if r.timing_meaningful:
        text += (f"runtime {r.runtime_ms:.4g} ms vs eager PyTorch {r.ref_runtime_ms:.4g} ms: "
                 f"speedup {r.speedup:.3f}x.")
    else:
        text += ("timings on the cpu evaluator are not meaningful (Triton runs in its interpreter); "
                 "the reward counts correctness only.")
    return " ".join([text] + r.notes)
