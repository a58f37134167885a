"""One evaluation, inside a fresh worker process: the stages in order, one result out.

`profile_reference` runs in its own process on trusted code only (the task's Model): the eager
runtime and the roofline counts are measured there, where no candidate can influence them, and the
worker host caches them per task. `evaluate_candidate` runs the submission's stages.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gc
import os
import secrets
import statistics
import time
import warnings
from typing import Callable

import torch
from torch.autograd import forward_ad

from . import (build_gate, fused_compare, integrity, precision, provenance, roofline, self_check,
               step_cache)
from . import perturb as perturbation
from .correctness import (as_tensors, check_deterministic, check_inputs_unchanged, check_output, clone_inputs,
                          items_of, output_items, output_tolerances, pristine_state, reference_output,
                          restore, shares_memory)
from .device_memory import out_of_device_memory, watch as watch_device_memory
from .feedback import describe_exception
from .guard import DispatchGuard, ForbiddenOperation, autotune_configs_pruned, install_interpreter_hooks
from .input_placement import InputPlacer
from .interpreter_bounds import KernelMemoryError
from .inputs import (EXTRA_TRIALS, correctness_trials, extra_trials, generate, insensitive_trial_inputs, replayable,
                     secret_order, seed_torch, signed_own_inputs, signed_scaled, spiked_task,
                     task_family, trial_count)
from .loading import (build_models, candidate_path, load_candidate, load_reference,
                      reference_model)
from .library_instances import InstanceTags
from .module_globals import ModuleGlobals
from .protocol import EvalRequest, EvalResult
from .scoring import device_name, mock_score, score
from .stages import COMPILE, CORRECTNESS, SCORED, STATIC_CHECK, TIMED, TIMING, StageFailure
from .static_check import static_check
from .timed_inputs import TimedOutputSampler, gather, input_bytes, perturbs, separable_rows
from .timing import MIN_TRIALS, Hooks, device_only_ms, hooked_calls, time_forward, trials_for
from .unit_inputs import UnitInputs
from .varied_parameters import vary_constant_parameters

# The unit trials' inputs (unit_inputs.py) are made for a step's trials and again for each timed
# round on them (a sort of every sample and a forward and backward of the reference): a task
# whose making takes longer on the GPU gets no such trial (full-size convolutions' samples hold
# a million values each).
UNIT_MAX_MS = 50.0
# Said on every step of a task whose reference misses its own float64 output (profile_reference)
UNSTABLE_NOTE = ("this task's reference is numerically unstable: computed in float64 it differs "
                 "from its own float32 output beyond the tolerance, so a kernel that rounds "
                 "differently can fail it without being wrong")
TIMING_SEED_OFFSET = 7777  # the profile's timing-sized inputs: seeds apart from its trials'
Progress = Callable[[str], None]
# The reference's time is cached for every later step of its task, so it is the median of a few
# timing rounds: some H200 hosts switch between states ~2.5 % apart for 50 ms to seconds
# (bench/drift.py, bench/placement.py), and one round can fall in the rarer one.
REFERENCE_ROUNDS = 3
# A kernel fault on the GPU surfaces as one of these errors; like a segfault on CPU, it is a crash.
DEVICE_FAULTS = ("illegal memory access", "device-side assert", "unspecified launch failure",
                 "misaligned address", "illegal instruction")


def profile_reference(req: EvalRequest, workdir: str) -> dict:
    """Eager reference runtime plus FLOPs and compulsory bytes (trusted code only). The mock
    evaluator counts on meta tensors only: no data, no timing."""
    device = torch.device("meta" if req.mock else req.device)
    reference = load_reference(req.reference_source, workdir)
    model = reference_model(reference, device)
    inputs = generate(reference.get_inputs, device, req.input_seed + TIMING_SEED_OFFSET)
    profile = {"ref_runtime_ms": None, "ref_spread": None, "device_name": "mock" if req.mock
               else device_name(device)}
    if not req.mock:
        with torch.no_grad():
            profile["eval_mode"] = _is_random(model, inputs)
            if profile["eval_mode"]:
                model.eval()
            rounds = _time_reference(model, inputs, device, REFERENCE_ROUNDS)
            if rounds[0].meaningful:
                profile.update(_launch_bound(model, inputs, device, rounds))
                if profile["launch_bound"]:  # its host's speed: the median of more rounds
                    rounds += _time_reference(model, inputs, device,
                                              LAUNCH_BOUND_ROUNDS - REFERENCE_ROUNDS)
            outputs = as_tensors(model(*inputs), "reference")
            profile["output_shapes"] = [list(o.shape) for o in outputs]
            # Which outputs are an input's memory (a view): a candidate's may be only where these are
            profile["output_aliases"] = [shares_memory(o, inputs) for o in outputs]
            del outputs
        timing = sorted(rounds, key=lambda t: t.median_ms)[len(rounds) // 2]
        profile.update(ref_runtime_ms=timing.median_ms, ref_spread=timing.spread,
                       ref_rounds_ms=[t.median_ms for t in rounds],
                       ref_clock_mhz=[t.clock_mhz for t in rounds])
        # Whether inputs can be made again from a seed: a property of the task's generator,
        # decided once here (two generations and a comparison, ~15 ms at full size) for every step.
        profile["replayable"] = replayable(reference.get_inputs, device, req.input_seed)
        with torch.no_grad():
            profile["perturb_timing_inputs"] = perturbs(
                input_bytes(inputs), _generation_ms(reference.get_inputs, device, req.input_seed),
                timing.median_ms,
                perturbation.perturbable(inputs), lambda: _perturbation_visible(req, model, inputs))
            profile["insensitive"] = _insensitive(req, reference.get_inputs, model, device)
            profile["signed_trial"] = (not profile["insensitive"]
                                       and _signed_trial_usable(req, reference.get_inputs, model, device))
            profile["unit_ms"], profile["unit_note"] = (
                (None, "the task's own inputs barely move its output") if profile["insensitive"]
                else _unit_trial(req, reference.get_inputs, model, device))
            profile["unit_trial"] = profile["unit_note"] is None
            profile["row_inputs"] = separable_rows(model, inputs, req.atol, req.rtol)
            profile["unstable"] = _instability(req, model, inputs)
    flops, nbytes, dtype = roofline.task_counts(model, inputs)
    return dict(profile, flops=flops, bytes=nbytes, dtype=str(dtype).replace("torch.", ""))


def _time_reference(model, inputs: list, device: torch.device, count: int) -> list:
    """The reference's timing rounds, its inputs moved to a random place before every call as the
    candidate's are (input_placement.py): a placement one process happens to get would otherwise
    be cached for every step of the task. Cyclic garbage collection is off, as in every
    candidate's evaluation process (integrity.stop_cyclic_collection): a forward of hundreds of
    modules allocates enough Python objects to trigger collections, whose pauses a launch-bound
    reference's time (its host's) would carry and a candidate's would not."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        if device.type != "cuda":
            return [time_forward(lambda: model(*inputs), device)]
        made, placer, placed = list(inputs), InputPlacer(device), list(inputs)

        def move():
            placed[:] = made
            placer.place(placed)

        return [time_forward(lambda: model(*placed), device, Hooks(before=move))
                for _ in range(count)]
    finally:
        if collecting:
            gc.enable()


# A reference whose timed median is this much above its GPU work alone is launch-bound: most of
# its time is the host issuing kernels (bench/launch_bound.py: KernelBench level 3's deep
# networks, 1.5-7x their GPU time on the H200), and that time moves with the host's speed
# between rounds and processes (by 10-50 % there), so speedups against it do too.
LAUNCH_BOUND_FACTOR = 1.25
LAUNCH_BOUND_MIN_MS = 0.05  # and by this much at least: not a few-µs kernel's timer noise
# The host's speed moved between rounds of one process, bimodally at times (GoogleNet: 1.64 or
# 3.3 ms for rounds a second apart): a launch-bound reference's cached time is the median of
# this many rounds (~0.4 s each), so one slow or fast spell does not set it for every step.
LAUNCH_BOUND_ROUNDS = 9


def _launch_bound(model, inputs: list, device: torch.device, rounds: list) -> dict:
    """The reference's GPU work alone, its host issue time, and whether it is launch-bound."""
    issue_ms = statistics.median(t.issue_ms for t in rounds)
    device_ms = device_only_ms(lambda: model(*inputs), device, issue_ms)
    median_ms = statistics.median(t.median_ms for t in rounds)
    return {"ref_device_ms": device_ms, "ref_issue_ms": issue_ms,
            "launch_bound": is_launch_bound(median_ms, device_ms, issue_ms)}


def is_launch_bound(median_ms: float, device_ms: float, issue_ms: float) -> bool:
    """Whether a reference's timed median is mostly its host issuing kernels: well above its GPU
    work alone, or not shorter than the host's issuing of the call (the GPU waited for the host
    to the end; the timer's lead hides at most a millisecond of it). The second catches forwards
    issued for longer than device_only_ms's spin can hide (50 ms): KernelBench level 3's
    bidirectional GRUs issue for 100-145 ms, and a GPU time measured behind that spin came out
    within 1.25x of their median (H200, session 20: 'same' scored 0.80-1.36 against them,
    unflagged). Either way by LAUNCH_BOUND_MIN_MS at least: a few-µs kernel's host issue
    always exceeds its median, and the lead hides it all."""
    return median_ms - device_ms > LAUNCH_BOUND_MIN_MS and (
        median_ms > LAUNCH_BOUND_FACTOR * device_ms or issue_ms >= median_ms)


def _generation_ms(get_inputs, device: torch.device, seed: int) -> float:
    """One generation of the task's inputs (warm: they were generated before); the median of
    three, since a decision rests on it for every later step of the task."""
    times = []
    for _ in range(3):
        _settle(device)
        t0 = time.perf_counter()
        generate(get_inputs, device, seed)
        _settle(device)
        times.append((time.perf_counter() - t0) * 1e3)
    return sorted(times)[1]


def _insensitive(req: EvalRequest, get_inputs, model, device: torch.device) -> bool:
    """Whether the reference's output barely depends on the task's own inputs: two draws give
    outputs within tolerance of each other (DeepNarrowMLP: eight narrow ReLU layers wash a
    [0, 1) input out to ~1e-3), so one output computed without reading the inputs would pass
    every random trial. Such a task's trials add signed, scaled inputs (inputs.py). Tasks
    whose family has extra inputs of its own (softmax, Frobenius, ...) are left to those."""
    if task_family(req.task_id) is not None:
        return False
    outputs = []
    for k in (1, 2):
        made = generate(get_inputs, device, req.input_seed + TIMING_SEED_OFFSET + k)
        try:
            outputs.append(output_items(model(*made)))
        except Exception:  # noqa: BLE001 - the reference ran on the timing inputs; no verdict here
            return False
        del made
    first, second = outputs
    if first is None or second is None or len(first) != len(second):
        return False
    for a, b in zip(first, second):
        if a.shape != b.shape or not (a.is_floating_point() and torch.allclose(
                a, b, atol=req.atol, rtol=req.rtol)):
            return False
    # The scaled trial must help: finite outputs (a kernel cannot be asked to match an
    # overflow) that differ from the task's own beyond tolerance.
    try:
        scaled = output_items(model(*insensitive_trial_inputs(get_inputs, device, req.input_seed)))
    except Exception:  # noqa: BLE001
        return False
    return scaled is not None and len(scaled) == len(first) and all(
        s.shape == a.shape and bool(torch.isfinite(s).all())
        and not torch.allclose(s, a, atol=req.atol, rtol=req.rtol) for s, a in zip(scaled, first))


def _signed_trial_usable(req: EvalRequest, get_inputs, model, device: torch.device) -> bool:
    """Whether the task's trials add its own inputs with random signs (inputs.SIGNED_LABEL): a
    task with no family trials of its own, with a floating input to sign, on which the reference's
    output is finite and its float32 output within that trial's tolerance of its float64 one (a
    kernel cannot be asked to match an overflow, a NaN of a logarithm, or the reference's own
    rounding where signed sums cancel). Where float64 cannot run, no trial: no verdict."""
    if task_family(req.task_id) in EXTRA_TRIALS:  # statistics tasks have none: they get it
        return False
    try:
        inputs = signed_own_inputs(get_inputs, device, req.input_seed + TIMING_SEED_OFFSET + 3)
        if not any(torch.is_tensor(x) and x.is_floating_point() and x.numel() for x in inputs):
            return False
        return _float64_miss(req, model, inputs, cancelling=True, finite=True) is None
    except Exception:  # noqa: BLE001 - no float64 version: no such trial
        return False


def _unit_trial(req: EvalRequest, get_inputs, model, device: torch.device) -> tuple:
    """(ms, why not): how long the slower of the two unit trials' makings takes (unit_inputs:
    the task's own values placed to drive hidden units; the part-of-the-way one sorts every
    sample three times), and None where the task's trials add them, else the reason they do not.
    They do for a task with no family trials of its own whose reference has Linear or
    convolution units that depend on its inputs, on which its output is finite and its float32
    output within tolerance of its float64 one (where float64 cannot run, no trial: no
    verdict), and on a GPU made within UNIT_MAX_MS (each step makes them for its trials and its
    timed rounds)."""
    if task_family(req.task_id) is not None:
        return None, "a task family with trials of its own"
    try:
        seed = req.input_seed + TIMING_SEED_OFFSET
        maker = UnitInputs(model)
        maker(get_inputs, device, seed + 4)
        if not maker.found:
            return None, "no hidden Linear or convolution unit depends on the inputs"
        UnitInputs(model, part=True)(get_inputs, device, seed + 4)
        ms, miss = 0.0, None  # warm now: the second makings are what every step pays
        for part in (False, True):
            _settle(device)
            start = time.perf_counter()
            inputs = UnitInputs(model, part=part)(get_inputs, device, seed + 5)
            _settle(device)
            ms = max(ms, (time.perf_counter() - start) * 1e3)
            miss = miss or _float64_miss(req, model, inputs, finite=True)
            del inputs
        if device.type == "cuda" and ms > UNIT_MAX_MS:
            return ms, f"its inputs take {ms:.0f} ms to make (at most {UNIT_MAX_MS:g})"
        return ms, None if miss is None else f"the reference is not stable on them: {miss[:200]}"
    except Exception as exc:  # noqa: BLE001 - no gradient or no float64 version: no such trial
        return None, f"{type(exc).__name__}: {str(exc)[:200]}"


def _perturbation_visible(req: EvalRequest, model, inputs: list) -> bool:
    """Whether one round of perturbation moves the reference's output beyond the tolerance the
    re-checked timed calls use: not for a reduction to a few values, where a stale output from
    a memo would pass."""
    base = model(*inputs)
    changed = clone_inputs(inputs)
    perturbation.perturb(changed, secrets.randbits(62), 1)
    try:
        check_output(model(*changed), base, atol=req.atol, rtol=req.rtol, task_id=req.task_id)
    except StageFailure:
        return True
    return False


def _instability(req: EvalRequest, model, inputs: list) -> str | None:
    """How the reference's own float32 output misses its float64 one beyond the tolerance (the
    comparison's message), or None. Some KernelBench tasks amplify rounding: EfficientNetB2 in
    training mode normalises batches of two (float64 and float32 outputs 0.29 apart on a CPU),
    and on the H200 the reference's convolutions run in TF32 (PyTorch's default), which
    ResNet101's and MobileNetV2's depth carry past the tolerance (kb_sweep). No kernel but one
    following the reference's own rounding passes such a task reliably; each step says so."""
    try:
        return _float64_miss(req, model, inputs)
    except Exception:  # noqa: BLE001 - no float64 version (an op without one): no verdict
        return None


def _float64_miss(req: EvalRequest, model, inputs: list, cancelling: bool = False,
                  finite: bool = False) -> str | None:
    """The comparison's message where the reference's float32 output misses its float64 one
    beyond the tolerance (or, with `finite`, is not finite), else None; raises where the model
    has no float64 version."""
    outs = as_tensors(model(*inputs), "reference")
    if finite and not all(bool(torch.isfinite(o).all()) for o in outs if o.is_floating_point()):
        return "the reference's output is not finite"
    exact = copy.deepcopy(model).double()
    wide = [x.double() if torch.is_tensor(x) and x.is_floating_point() else x for x in inputs]
    precise = as_tensors(exact(*wide), "reference")
    cast = [p.to(o.dtype) if o.is_floating_point() else o for o, p in zip(outs, precise)]
    del exact, wide, precise
    try:
        check_output(outs, cast, atol=req.atol, rtol=req.rtol, task_id=req.task_id,
                     label="the reference against itself in float64", cancelling=cancelling)
    except StageFailure as failure:
        return failure.feedback
    return None


def _is_random(model, inputs: list) -> bool:
    """Whether two training-mode forwards on the same input disagree (dropout with p > 0):
    KernelBench leaves models in training mode, where such a task has no matchable output."""
    first, second = model(*inputs), model(*inputs)
    pairs = zip(as_tensors(first, "reference"), as_tensors(second, "reference"))
    return not all(a.shape == b.shape and torch.allclose(a, b, rtol=1e-4, atol=1e-6, equal_nan=True)
                   for a, b in pairs)


def prewarm(device: torch.device) -> None:
    """Run the evaluator's own kernels once (random inputs, clone, compare, flush, events), and
    on a GPU the vendor libraries a reference calls, so a spare process has loaded them before
    its job arrives; CUDA loads kernels lazily, per process."""
    x = generate(lambda: [torch.rand(64, 64)], device, 0)[0]
    y = clone_inputs([x])[0]
    check_inputs_unchanged([x], [y], "prewarm")
    check_output(y, x, atol=1e-2, rtol=1e-2)
    check_deterministic(x, y, atol=1e-2, rtol=1e-2, label="prewarm")
    if device.type == "cuda":
        time_forward(lambda: y.clone(), device)  # also calibrates the timer's spin kernel
        InputPlacer(device).place([y])  # the timed inputs' move (input_placement.py)
        fused_compare.max_diff_and_excess(y, x, 0.01)  # the full-size comparison's kernel
        fused_compare.warm_variants()  # and its other variants, compiled but not launched
        _warm_libraries(device)
    # the normalised tasks' checks, and the timed calls' per-call defences (perturbation,
    # spoiled outputs, fingerprints): else their first use is counted in the step
    torch.aminmax(x)
    x.sum(dim=-1)
    torch.linalg.vector_norm(x)
    sampler = TimedOutputSampler(lambda: [torch.rand(512, 8)], [], device, 0, replayable=True,
                                 perturbing=True, row_inputs=[0])  # 16 rows a call
    for _ in range(3):
        sampler.refresh()
        sampler.observe(sampler.inputs[0] * 2)
    for check in sampler.checks():
        if check.positions is not None:
            gather(check.inputs[0], check.positions[0])


def _warm_libraries(device: torch.device) -> None:
    """A tiny call into cuBLAS, cuBLASLt and cuDNN: a fresh process's first call into each made
    its handle and loaded the library (`bench/library_warmup.py` on the H200: a 4096 matmul's
    first call 117 ms, 31 after this; a Linear's 82 -> 38, a conv2d's 98 -> 10), which the
    reference paid inside the step. Best effort: a library that cannot start here is left to
    the step, where its failure is the task's to report."""
    try:
        a = torch.rand(8, 8, device=device)
        torch.mm(a, a)
        torch.nn.functional.linear(a, a, a[0])
        torch.nn.functional.conv2d(a.view(1, 1, 8, 8), a[:2, :2].reshape(1, 1, 2, 2))
        torch.cuda.synchronize(device)
    except RuntimeError:
        pass


class _Clock:
    """Tells the worker host which stage is running (it enforces the limits) and times each."""

    def __init__(self, progress: Progress, result: EvalResult):
        self.progress, self.result = progress, result
        self.snap = None  # the integrity snapshot, once taken

    @contextlib.contextmanager
    def stage(self, name: str):
        self.result.stage = name
        self.progress(name)
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.result.stage_seconds[name] = round(time.perf_counter() - t0, 4)

    def timed(self) -> None:
        """The timed calls are over: the host may fork the next step's process now."""
        self.progress(TIMED)


def evaluate_candidate(req: EvalRequest, profile: dict, workdir: str, progress: Progress) -> EvalResult:
    device = torch.device(req.device)
    result = EvalResult(stage=STATIC_CHECK, device=profile.get("device_name", str(device)))
    clock = _Clock(progress, result)
    try:
        try:
            _run_stages(req, profile, workdir, device, clock, result)
        except Exception as exc:
            if clock.snap is not None:  # candidate code ran: a tampered process explains it
                try:
                    _check_integrity(clock.snap, result.stage)
                except (MemoryError, torch.OutOfMemoryError) as during_check:
                    exc = during_check  # the check itself found no memory left (listing /proc)
                if _out_of_memory(exc):
                    # memory the submission's code holds (or leaked) starves the evaluator's own
                    # buffers: the submission's fault, and counted as such, unless other
                    # processes hold it (device_memory.py)
                    memory = (out_of_device_memory(device, req.language, "the evaluation")
                              if isinstance(exc, torch.OutOfMemoryError) else "")
                    raise StageFailure(result.stage, "out_of_memory", "the evaluation ran out of "
                                       f"memory after your code ran{memory}: your module or "
                                       "kernels hold memory the evaluation needs") from None
            raise  # else the evaluator's own failure: internal_error
    except StageFailure as failure:
        result.stage, result.error_class, result.feedback = failure.stage, failure.error_class, failure.feedback
        result.correct, result.reward = False, 0.0
    return result


def static_refusal(req: EvalRequest, progress: Progress) -> dict | None:
    """The step's result where the static check refuses the submission (as evaluate_candidate
    would answer it, but for the device's name, which the host adds), else None. AST only: no
    submission code runs, so the worker host asks it of a child forked from itself
    (worker.Host._refused_statically) before a step takes a GPU's warm spare."""
    result = EvalResult(stage=STATIC_CHECK, device=req.device)
    try:
        with _Clock(progress, result).stage(STATIC_CHECK):
            static_check(req.code, req.language)
    except StageFailure as failure:
        result.stage, result.error_class, result.feedback = failure.stage, failure.error_class, failure.feedback
        result.correct, result.reward = False, 0.0
        return result.to_dict()
    return None


def _run_stages(req, profile, workdir, device, clock: _Clock, result: EvalResult) -> None:
    with clock.stage(STATIC_CHECK):
        report = static_check(req.code, req.language)
    if req.mock:
        return mock_score(req, profile, result)
    kernels = _kernel_check(req, device, report)
    with clock.stage(COMPILE):
        watch_device_memory(device)  # the allocator's unmet requests from here (device_memory.py)
        if device.type == "cpu":
            install_interpreter_hooks()
        if req.language == "cuda":
            build_gate.install()  # before the integrity snapshot: the gate is the evaluator's
        reference = load_reference(req.reference_source, workdir)
        integrity.record_thread_starts()
        integrity.check_dataclass_field_names()
        integrity.refuse_special_names_by_key()
        integrity.stop_cyclic_collection()
        snap = clock.snap = integrity_snapshot(_reference_namespaces(reference))
        integrity.guard_submission_actions(candidate_path(workdir), report.source)
        candidate, candidate_file = load_candidate(report.source, workdir, req.language, device,
                                                   report.own_methods)
        _check_integrity(snap, COMPILE)
        ignore_warnings(COMPILE, "after the import")  # the submission's filters are not the evaluator's
        ref_model, new_model, ref_state = build_models(reference, candidate, candidate_file, device,
                                                       eval_mode=profile.get("eval_mode", False))
        ignore_warnings(COMPILE, "after building the models")
        vary_constant_parameters(ref_model, new_model, ref_state, secrets.randbits(62))
        reference_side = _ReferenceSide(ref_model, ref_state)
        if profile.get("unit_trial"):
            put_back = functools.partial(restore, ref_model, ref_state)
            reference_side.units = [UnitInputs(ref_model, put_back, part=part)
                                    for part in (False, True)]
        _check_integrity(snap, COMPILE)
    guard = DispatchGuard(device, candidate_file)
    guard.jit_names = frozenset(report.kernels)
    guard.language = req.language
    guard.reference_aliases = profile.get("output_aliases")  # what every call's outputs may alias
    if profile.get("replayable") is None:  # a profile cached before it recorded this
        profile = dict(profile, replayable=replayable(reference.get_inputs, device, req.input_seed))
    with clock.stage(CORRECTNESS), torch.no_grad():
        try:
            signature = _correctness(req, reference, reference_side, new_model, guard, device,
                                     snap, profile, result)
        except StageFailure as failure:
            _check_compiled_precision(device, workdir, CORRECTNESS)  # the reason that explains the miss
            raise with_precision_hint(failure, report.source, device) from None
        machine_code = precision.Disassembly(precision.disassembler() if device.type == "cuda" else None)
        read: set[str] = set()  # compiled files checked already
        with _defence(result, "narrow arithmetic"):
            _check_compiled_precision(device, workdir, CORRECTNESS, machine_code, read)
    with clock.stage(TIMING), torch.no_grad():
        _timing(req, reference, reference_side, new_model, guard, device, snap, profile, result,
                kernels, signature, clock.timed)
        with _defence(result, "narrow arithmetic"):  # kernels first compiled for timed calls too
            _check_compiled_precision(device, workdir, TIMING, machine_code, read, last=True)
        if req.language == "cuda":
            _check_registrations(workdir, TIMING, result)
    with clock.stage(SCORED):
        score(req, profile, result)


NARROW = precision.ERROR_CLASS


def _check_compiled_precision(device: torch.device, workdir: str, stage: str,
                              machine_code: precision.Disassembly | None = None,
                              read: set[str] | None = None, last: bool = False) -> None:
    """On a GPU, the step's compiled Triton kernels must not compute in 8-bit or narrower formats
    (precision.py; the cpu evaluator checks each interpreted launch's TTIR as it is made): the
    TTIR and PTX of every kernel Triton compiled or found in a cache during the step
    (step_cache.py), and whatever the step's own cache folder holds (a CUDA step's Triton
    kernels compile there, children.py); then the machine code of those whose text cannot vouch
    for it (precision.needing_machine_code), disassembled in processes started here and read
    when `last` (after timing, which they run beside). `read`: the files checked already (left
    out, then added)."""
    if device.type != "cuda":
        return
    files = precision.compiled_files(os.path.join(workdir, "triton_cache"),
                                     step_cache.StepCacheManager.served)
    if read is not None:
        files = [f for f in files if f not in read]
        read.update(files)
    found = precision.check_texts(files)
    if found is None and machine_code is not None:
        machine_code.start(precision.needing_machine_code(files))
        found = machine_code.finish() if last else None
    if found is not None:
        raise StageFailure(stage, NARROW, precision.feedback(found))
    if last and machine_code is not None and machine_code.unread_feedback():
        raise StageFailure(stage, NARROW, machine_code.unread_feedback())


TF32_HINT = ("your kernels use tl.dot, which on float32 inputs computes in TF32 by default "
             "(about 1e-3 relative error a product, more after long sums); "
             "tl.dot(a, b, input_precision=\"ieee\") computes in full float32")


def with_precision_hint(failure: StageFailure, source: str, device: torch.device) -> StageFailure:
    """An output mismatch of Triton kernels using `tl.dot` on a GPU, without choosing its
    precision, says that it runs in TF32 there (on KernelBench's level 2 tasks 14 and 18 that
    alone misses the tolerance: kb_sweep); the cpu evaluator's interpreter computes in float32."""
    if (failure.error_class != "output_mismatch" or device.type != "cuda" or ".dot(" not in source
            or "input_precision" in source or "allow_tf32" in source):
        return failure
    return StageFailure(failure.stage, failure.error_class, f"{failure.feedback} ({TF32_HINT})")


class _KernelCheck:
    """Kernel provenance for one evaluation: records forwards, rejects foreign kernels."""

    def __init__(self, recorder: provenance.KernelRecorder, own: provenance.OwnKernels):
        self.recorder, self.own = recorder, own

    def verify(self, stage: str, result: EvalResult) -> None:
        result.kernels_seen = [k[:200] for k in self.recorder.seen[:20]]
        result.provenance_seconds = round(self.recorder.start_s + self.recorder.overhead_s, 4)
        foreign = provenance.foreign_kernels(self.recorder.seen, self.own)
        if foreign:
            raise StageFailure(stage, "foreign_kernel", "your forward launched device kernels "
                               f"that are neither your own nor layout copies: "
                               f"{provenance.describe_foreign(foreign)}. Launch only kernels you "
                               "define (vendor libraries and torch's compute kernels are not "
                               "allowed, on any thread); a kernel of yours named like a library's "
                               "(sgemm_..., sm90_...) is not accepted either: rename it")
        if not self.recorder.working:
            result.notes.append("kernel provenance: CUPTI recorded nothing on this host (not even "
                                "its own probe); the recorded calls' kernels went unchecked")
        elif not all(provenance.launched_own(w, self.own) for w in self.recorder.windows):
            raise StageFailure(stage, "foreign_kernel", "a recorded forward launched none of your "
                               "own kernels (only layout copies, or nothing): its output was made "
                               "where no recorder looks. Compute the output on the device with "
                               "kernels you define")


def _kernel_check(req, device, report) -> _KernelCheck | None:
    """Kernel provenance applies on a GPU to every submission ("all", the default) or to CUDA ones."""
    wanted = req.provenance == "all" or (req.provenance == "cuda" and req.language == "cuda")
    if device.type != "cuda" or not wanted:
        return None
    return _KernelCheck(provenance.KernelRecorder(),
                        provenance.own_kernels(req.language, report.kernels, report.cuda_source))


def _reference_namespaces(reference) -> dict:
    """The task module and its Model class: a patched reference would grade against itself."""
    return {"reference": reference, "reference.Model": reference.Model}


_SNAPSHOT_EXTRAS = ("threads", "extra", "children", "bindings", "versions", "globals", "instances")


def integrity_snapshot(extra: dict) -> dict:
    """What `_check_integrity` compares against: the bindings' snapshot, and `_SNAPSHOT_EXTRAS`.
    The module tags come first: they give modules the warning registries a first warning would
    otherwise add to their globals after the bindings had been read."""
    module_tags = ModuleGlobals()
    return dict(integrity.snapshot(extra), threads=integrity.thread_ids(), extra=extra,
                children=integrity.child_processes(), bindings=integrity.Bindings(extra),
                versions=integrity.ClassVersions(extra), globals=module_tags,
                instances=InstanceTags())


def _check_registrations(workdir: str, stage: str, result: EvalResult) -> None:
    """A CUDA extension's host code may not register kernels for torch's operators: the
    reference would compute with them (the text rules refuse the spellings they know)."""
    with _defence(result, "integrity"):
        build = os.path.join(workdir, "torch_extensions")  # TORCH_EXTENSIONS_DIR (children.py)
        registered = integrity.kernels_registered_from((build, os.path.realpath(build)))
    if registered:
        raise StageFailure(stage, "tampering", "your extension registered kernels for torch "
                           f"operators ({', '.join(registered[:3])}); they would change what the "
                           "reference computes")


def _check_integrity(snap: dict, stage: str) -> None:
    """The process as the evaluator left it: no foreign calls, threads, audited actions or
    processes, and torch's bindings and state unchanged. An exception from the submission's own
    code while this runs (an object it changed ran it) is tampering, not the evaluator's
    failure, which would leave the turn uncounted (red-team pass 81)."""
    try:
        _integrity_findings(snap, stage)
    except (StageFailure, MemoryError, torch.OutOfMemoryError):
        raise
    except BaseException as exc:
        line = integrity.raised_in_submission(exc)
        if line is None:
            raise
        raise StageFailure(stage, "tampering", f"your code (line {line}) ran while the evaluator "
                           f"checked the process after your calls, and raised "
                           f"{type(exc).__name__}: code of yours runs only when the evaluator "
                           "calls your module; do not change the objects of the libraries it "
                           "uses") from None


def _integrity_findings(snap: dict, stage: str) -> None:
    foreign = self_check.foreign_calls()
    if foreign:
        raise StageFailure(stage, "tampering", f"a method of your class ran on an object not of "
                           f"that class ({'; '.join(foreign[:2])}): methods of your classes run "
                           "only on their own instances (a method read off its class, or passed "
                           "to a library that calls it with its own objects, can read anything's "
                           "private attributes)")
    threads = integrity.foreign_threads(snap["threads"])
    if threads:
        raise StageFailure(stage, "tampering", f"your code started threads ({', '.join(threads[:3])}); "
                           "work on other threads escapes the dispatch guard")
    actions = integrity.submission_actions()
    if actions:
        raise StageFailure(stage, "tampering", "your code tried what submissions may not do at "
                           f"run time ({', '.join(actions[:3])}): running code from strings, "
                           "files, programs, native libraries, frame tracing or patching functions")
    processes = integrity.child_processes() - snap["children"] - precision.STARTED  # (disassemblers)
    if processes:
        raise StageFailure(stage, "tampering", f"your code started {len(processes)} process(es); "
                           "work in another process escapes the dispatch guard and the profiler")
    planted = snap["instances"].changed()  # (library_instances.py: red-team passes 81-82)
    if planted:
        raise StageFailure(stage, "tampering", "your code changed the attributes of library "
                           f"objects the evaluator and Triton use outside your calls: "
                           f"{', '.join(planted[:5])}; do not set attributes on library objects "
                           "(through a parameter or a container either)")
    if not snap["bindings"].unchanged():
        changed = integrity.changed({k: v for k, v in snap.items() if k not in _SNAPSHOT_EXTRAS},
                                    snap["extra"])
        if changed:
            raise StageFailure(stage, "tampering", "your code replaced parts of torch the "
                               f"evaluator relies on: {', '.join(changed[:5])}; do not "
                               "monkeypatch torch")
        # A legitimate change (CUDA's lazy initialisation rebinds private state, a lazy import
        # adds a name): the next check starts from here. What the snapshot names is still what it
        # held, so replacing any of it later is still a change.
        snap["bindings"] = integrity.Bindings(snap["extra"])
    # What the bindings cannot see: a class, or a module's globals, changed and changed back since
    # the snapshot (red-team passes 74 and 75: a name planted by a forward ran in the evaluator's
    # code right after it, then went)
    for tags, what, advice in ((snap["versions"], "classes", "monkeypatch library classes"),
                               (snap["globals"], "the globals of modules", "plant names in other modules")):
        changed = tags.changed()
        if changed:
            raise StageFailure(stage, "tampering", f"your code changed {what} the evaluator's own "
                               f"code goes through: {', '.join(changed[:5])} (a name set there or "
                               f"deleted, even one put back before this check); do not {advice}")


def _settle(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


@contextlib.contextmanager
def _defence(result: EvalResult, what: str):
    """Accounts the time of an anti-gaming check (its forwards included) to defence_seconds and
    to its kind in defence_breakdown."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        spent = time.perf_counter() - t0
        result.defence_seconds += spent
        result.defence_breakdown[what] = result.defence_breakdown.get(what, 0.0) + spent


def _accounted(fn, result: EvalResult, what: str, settle: Callable[[], None] = lambda: None):
    """fn, its time accounted as a defence (per-call hooks of the timed loop). `settle` runs
    first, unaccounted: after a warm-up call nothing has waited for the candidate's kernels yet,
    and the fingerprint's first read would otherwise charge their run time to the defence."""
    def run(*args):
        settle()
        with _defence(result, what):
            return fn(*args)
    return run


def _run_candidate(model, inputs: list, guard: DispatchGuard, device: torch.device, label: str,
                   result: EvalResult, kernels: _KernelCheck | None = None):
    """One guarded forward (its kernels recorded when `kernels` is given); every way it can fail
    becomes a classified StageFailure."""
    if kernels is not None:
        kernels.recorder.start()  # CUPTI's start-up is not the candidate's time
    seed_torch(secrets.randbits(62))  # torch.initial_seed() must not tell calls apart
    t0 = time.perf_counter()
    try:
        with kernels.recorder.record() if kernels else contextlib.nullcontext():
            return _guarded_forward(model, inputs, guard, device, label)
    finally:
        result.candidate_seconds += time.perf_counter() - t0


def _guarded_forward(model, inputs: list, guard: DispatchGuard, device: torch.device, label: str):
    file = guard.candidate_file
    try:
        with guard:
            out = model(*inputs)
        _settle(device)  # asynchronous kernel faults surface here
    except ForbiddenOperation as exc:
        if guard.violation is None:  # raised by the candidate itself, not by the guard
            raise StageFailure(CORRECTNESS, "runtime_error", f"{label}: forward raised "
                               + describe_exception(exc, file)) from None
    except BaseException as exc:
        # (the guard's or a failed kernel's verdict first, whatever the submission raised after)
        if _out_of_memory(exc) and guard.violation is None and guard.kernel_error is None:
            raise _memory_failure(exc, guard, device, CORRECTNESS, label) from None
        if guard.violation is None and isinstance(guard.kernel_error, KernelMemoryError):
            raise StageFailure(CORRECTNESS, "runtime_error", f"{label}: "
                               + describe_exception(guard.kernel_error, file)) from None
        if guard.violation is None and isinstance(guard.kernel_error, precision.NarrowArithmetic):
            raise StageFailure(COMPILE, NARROW, str(guard.kernel_error)) from None
        if guard.violation is None:
            kind = type(exc).__name__
            # The interpreter reports what the GPU compiler would reject (non-power-of-2 arange,
            # bad types) as InterpreterError: the same verdict on both evaluators.
            if "Compil" in kind or kind in ("UnsupportedLanguageConstruct", "InterpreterError"):
                raise StageFailure(COMPILE, "compile_error", "your Triton kernel failed to compile: "
                                   + describe_exception(exc, file)) from None
            if any(m in _message(exc) for m in DEVICE_FAULTS):
                raise StageFailure(CORRECTNESS, "crash", f"{label}: your kernel faulted on the "
                                   "device; the CUDA context is lost (check offsets and masks): "
                                   + describe_exception(exc, file)) from None
            raise StageFailure(CORRECTNESS, "runtime_error", f"{label}: forward raised "
                               + describe_exception(exc, file)) from None
    if guard.violation is not None:
        raise StageFailure(CORRECTNESS, "forbidden_op", str(guard.violation))
    _check_no_kernel_failure(guard, CORRECTNESS)
    check_modes(CORRECTNESS, label)
    check_returned(inputs, out, CORRECTNESS, label, guard.reference_aliases)
    return out


def _memory_failure(exc: BaseException, guard: DispatchGuard, device: torch.device, stage: str,
                    label: str) -> StageFailure:
    """A forward that ran out of memory: the submission's failure, its feedback with the device's
    memory picture; or, where other processes hold the memory, the evaluator's
    (device_memory.MemoryHeldElsewhere raised). Not where the guard or a kernel failed first:
    their verdict stands, whatever the submission raised after it."""
    memory = ""
    if (isinstance(exc, torch.OutOfMemoryError) and guard.violation is None
            and guard.kernel_error is None):
        memory = out_of_device_memory(device, guard.language, label)
    return StageFailure(stage, "out_of_memory", f"{label}: out of memory{memory}: "
                        + describe_exception(exc, guard.candidate_file))


def _check_no_kernel_failure(guard: DispatchGuard, stage: str) -> None:
    """A kernel failed in the interpreter and forward caught the error and went on: its message
    could carry the kernel's values to host code, so the failure stands (cpu evaluator)."""
    if isinstance(guard.kernel_error, KernelMemoryError):
        raise StageFailure(stage, "runtime_error",
                           describe_exception(guard.kernel_error, guard.candidate_file))
    if isinstance(guard.kernel_error, precision.NarrowArithmetic):
        raise StageFailure(COMPILE if stage == CORRECTNESS else stage, NARROW, str(guard.kernel_error))
    if guard.kernel_error is not None:
        raise StageFailure(COMPILE if stage == CORRECTNESS else stage, "compile_error",
                           "your Triton kernel failed, and your code caught the error and went "
                           "on (a kernel that fails fails the step): "
                           + describe_exception(guard.kernel_error, guard.candidate_file))


def _out_of_memory(exc: BaseException) -> bool:
    """Device memory (torch's OutOfMemoryError), host memory under the process's limit (torch's
    allocator's message) or Python's own MemoryError."""
    return isinstance(exc, (torch.OutOfMemoryError, MemoryError)) or "can't allocate memory" in _message(exc)


def _message(exc: BaseException) -> str:
    """An exception's text from its string arguments, read past any `args` or `__str__` of the
    submission's own (its code would run outside the guard, and could raise)."""
    return " ".join(a for a in BaseException.args.__get__(exc) if type(a) is str)


# Dtypes the comparisons can read (float8, bit and quantized tensors have no subtraction or
# equality kernels: returned, they crashed the evaluator).
_COMPARABLE = {torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
               torch.complex128, torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
               torch.int64} | {getattr(torch, f"uint{b}") for b in (16, 32, 64) if hasattr(torch, f"uint{b}")}


def ignore_warnings(stage: str, label: str) -> None:
    """Sets the warning filters to ignoring everything, once they hold only filters as
    `warnings.filterwarnings` makes them: setting them compares with each entry (red-team pass
    76, integrity.foreign_warning_filters)."""
    if integrity.foreign_warning_filters():
        raise StageFailure(stage, "tampering", f"{label}: the warning filters hold an entry that "
                           "warnings.filterwarnings does not make; the evaluator's own warnings "
                           "calls compare and call their entries: add filters only with "
                           "warnings.filterwarnings, warnings.simplefilter or warnings.catch_warnings")
    warnings.simplefilter("ignore")


def check_modes(stage: str, label: str) -> None:
    """After every call, the modes the evaluator's own arithmetic runs in. Calls run with autograd
    off (the evaluator's `torch.no_grad()`) and no forward-mode AD level: a forward that turns
    either on and leaves it on (neither is an operator, so no guard sees it) would have the
    evaluator's arithmetic record graphs or tangents and refuse its `out=` buffers. Warnings the
    submission made errors (`warnings.simplefilter("error")`) would raise in the evaluator's own
    torch calls: its filters are reset to ignoring them."""
    ignore_warnings(stage, label)
    if torch.is_grad_enabled():
        torch.set_grad_enabled(False)
        raise StageFailure(stage, "tampering", f"{label}: your forward turned autograd on and left "
                           "it on (torch.set_grad_enabled(True)); calls run without autograd: use "
                           "`with torch.enable_grad():` where you need it, which restores the mode")
    if torch.is_inference_mode_enabled():
        raise StageFailure(stage, "tampering", f"{label}: your code left inference mode on "
                           "(torch.inference_mode); calls run without it")
    if forward_ad._current_level >= 0:
        raise StageFailure(stage, "tampering", f"{label}: your code left a forward-mode AD level "
                           "open (torch.autograd.forward_ad.dual_level); calls run without it")


def check_returned(inputs: list, out, stage: str, label: str, aliases: list | None = None) -> None:
    """What a call returned and left behind, before anything reads it: plain, dense tensors
    (exact types) of a comparable dtype on the inputs' device, carrying no Python state, nor
    its inputs; and, given which of the reference's outputs are its inputs' memory (`aliases`),
    no other output in an input's memory."""
    outputs = output_items(out)
    if outputs is None:
        kinds = ", ".join(sorted({type(x).__name__ for x in items_of(out)}))
        raise StageFailure(stage, "not_a_tensor", f"{label}: forward returned {type(out).__name__}"
                           f" ({kinds}); return a torch.Tensor or a tuple or list of plain "
                           "torch.Tensor (subclasses run code where the evaluator reads them)")
    device = next((x.device for x in inputs if type(x) is torch.Tensor), None)
    for i, x in enumerate(inputs):
        if type(x) is torch.Tensor and x.has_names():  # rename_: no operator, so unguarded
            raise StageFailure(stage, "input_mutated", f"{label}: forward named input {i}'s "
                               "dimensions in place; inputs are read-only")
    for i, o in enumerate(outputs):
        if o.layout != torch.strided or o.is_meta or (device is not None and o.device != device):
            raise StageFailure(stage, "not_a_tensor", f"{label}: output {i} is a {o.layout} tensor "
                               f"on {o.device}; return dense (strided) tensors on {device}")
        base = o._base  # a dense view of a sparse tensor's values is strided, its base is not
        if base is not None and (base.layout != torch.strided or base.is_meta or base.is_nested):
            raise StageFailure(stage, "not_a_tensor", f"{label}: output {i} is a view of a "
                               f"{'nested' if base.is_nested else base.layout} tensor; return dense "
                               "(strided) tensors and views of them")
        if o.is_nested or o.has_names():
            raise StageFailure(stage, "not_a_tensor", f"{label}: output {i} is a "
                               f"{'nested' if o.is_nested else 'named'} tensor; return plain "
                               "tensors (no nested tensors, no dimension names)")
        if aliases is not None and i < len(aliases) and not aliases[i] and shares_memory(o, inputs):
            # ReLU is the identity on its task's own [0, 1) inputs: returning the input passed
            # every timed call's check while it cost nothing (red-team pass 28)
            raise StageFailure(stage, "input_mutated", f"{label}: output {i} is an input's "
                               "memory (the input or a view of it), where the reference returns a "
                               "new tensor; inputs are read-only: write the result into a tensor "
                               "of your own")
        if o.dtype not in _COMPARABLE:
            raise StageFailure(stage, "dtype_mismatch", f"{label}: output {i} has dtype {o.dtype}, "
                               "which the comparison cannot read; return the reference's dtype")
    carriers = integrity.carried_state(inputs, outputs)
    if carriers:
        raise StageFailure(stage, "tampering", f"{label}: your code attached Python state to "
                           f"{', '.join(carriers[:3])} (attributes, autograd state or hooks, on "
                           "the tensor, its base or its storage); objects kept there run code "
                           "when the evaluator releases the tensor")


class _ReferenceSide:
    """The reference model, put back to its pristine parameters (kept in host memory since
    before the submission's code ran) before every output it computes: a kernel writing out of
    bounds can reach device memory the reference shares with it."""

    def __init__(self, model: torch.nn.Module, state: dict, with_float64: bool = False):
        self.model, self.state = model, state
        self.units: list[UnitInputs] = []  # the unit trials' makers, where the profile allows
        self.model64 = None
        if with_float64:
            restore(model, state)
            self.model64 = copy.deepcopy(model).double()
            self.state64 = pristine_state(self.model64)

    def output(self, inputs: list, put_back: bool = True):
        """The reference's output; `put_back` False only where no code of the submission can
        have run since the last output (its calls over, the device synchronised): putting back
        a full-size MLP's 2.7 GB of parameters costs ~0.2 s on the H200 each time."""
        if put_back:
            restore(self.model, self.state)
            if self.model64 is not None:
                restore(self.model64, self.state64)
        # whatever the submission's code left behind: autograd on, warnings made errors
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return reference_output(self.model, inputs, self.model64)


def _correctness(req, reference, reference_side, new_model, guard, device, snap, profile,
                 result) -> list[tuple]:
    """Each trial's inputs exist once while the candidate runs; the copy they are checked against,
    which the reference then computes on, is made again from the trial's seed afterwards (copied
    before the call only for a generator that cannot be replayed). On the first trial the
    candidate runs a second time on the same values at other addresses (determinism) before the
    pristine copy is made; the two runs are compared once the first has the reference's shapes
    (recorded by the profile: they bound what the comparison reads). Returns the outputs' shapes
    and dtypes, which every timed call must return too."""
    ref = _ReferenceSide(reference_side.model, reference_side.state, with_float64=device.type == "cpu")
    replay = profile["replayable"]
    insensitive, signed = bool(profile.get("insensitive")), bool(profile.get("signed_trial"))
    units = reference_side.units
    result.trials_total = trial_count(req.trials, req.task_id, insensitive, signed, units)
    worst = 0.0
    # the trials' seeds come from a secret of this step's, not from the request's input_seed:
    # no trial's seed, read back from its inputs, names another's (red-team pass 57)
    trials = correctness_trials(reference.get_inputs, device, secrets.randbits(62), req.trials,
                                req.task_id, insensitive, signed, units,
                                secret_order(result.trials_total))
    k = -1
    # not enumerate(): it keeps the last trial (and its inputs) alive until the next is made
    while (trial := next(trials, None)) is not None:
        k += 1
        _settle(device)  # the inputs' generation is the evaluator's time, not the candidate's
        saved = None if replay else clone_inputs(trial.inputs)
        out = _run_candidate(new_model, trial.inputs, guard, device, trial.label, result)
        with _defence(result, "integrity"):
            _check_integrity(snap, CORRECTNESS)
        again = None
        if k == 0:  # the same values at other addresses: a cache keyed by pointer misses
            with _defence(result, "determinism"):
                same = trial.regenerate() if replay else clone_inputs(saved)
                again = _run_candidate(new_model, same, guard, device, trial.label, result)
                _check_integrity(snap, CORRECTNESS)
                if _shares_storage(out, again):
                    # one buffer returned by both calls: the first result is gone, so the
                    # comparison would read the buffer against itself; keep this result and
                    # compare it with a third call's (red-team pass 51)
                    kept = [t.clone() for t in as_tensors(again, "your")]
                    del same
                    same = trial.regenerate() if replay else clone_inputs(saved)
                    out = _run_candidate(new_model, same, guard, device, trial.label, result)
                    _check_integrity(snap, CORRECTNESS)
                    again = kept
                del same
        pristine = trial.regenerate() if replay else saved
        check_inputs_unchanged(trial.inputs, pristine, trial.label)
        if again is not None:
            with _defence(result, "determinism"):
                _check_shapes(out, profile.get("output_shapes"), trial.label)  # bounds the reads
                check_deterministic(out, again, atol=req.atol, rtol=req.rtol, label=trial.label)
            del again
        label, cancelling = trial.label, trial.cancelling
        del trial  # its inputs: the reference computes on the pristine ones
        expected = ref.output(pristine)
        try:
            worst = max(worst, check_output(out, expected, atol=req.atol, rtol=req.rtol,
                                            task_id=req.task_id, label=label,
                                            cancelling=cancelling))
        except StageFailure as failure:
            if failure.error_class != "output_mismatch" or not profile.get("unstable"):
                raise
            raise StageFailure(failure.stage, failure.error_class,
                               f"{failure.feedback} ({UNSTABLE_NOTE})") from None
        result.trials_passed += 1
        signature = output_signature(out)
        del out, expected, saved, pristine
    result.max_abs_error = worst
    result.correct = True
    if profile.get("unstable"):
        result.notes.append(f"Note: {UNSTABLE_NOTE}.")
    if device.type == "cpu" and autotune_configs_pruned():
        result.notes.append("cpu evaluator: each @triton.autotune kernel ran on its first config "
                            "only (the interpreter cannot benchmark configs)")
    return signature


def _check_shapes(out, shapes: list | None, label: str, stage: str = CORRECTNESS) -> None:
    """The reference's output shapes (the profile's, on inputs of the same shapes, or the checked
    calls'), checked before anything reads the whole output: an expansion to a huge shape would
    have the comparison allocate its logical size."""
    got = [tuple(o.shape) for o in as_tensors(out, "your")]
    if shapes is not None and got != [tuple(s) for s in shapes]:
        raise StageFailure(stage, "shape_mismatch", f"{label}: output shapes {got}, expected "
                           f"{[tuple(s) for s in shapes]}")


def _shares_storage(first, second) -> bool:
    """Whether a call's outputs live in the memory an earlier call's outputs live in (a buffer
    kept by the model and returned by every call): the second call overwrote the first's."""
    earlier = [t for t in as_tensors(first, "your") if t.numel()]
    return any(t.numel() and shares_memory(t, earlier) for t in as_tensors(second, "your"))


def output_signature(out) -> list[tuple]:
    return [(tuple(o.shape), o.dtype) for o in as_tensors(out, "your")]


def _check_signature(out, signature: list[tuple], label: str) -> None:
    """A timed call returns what the checked calls returned (the reference's shapes and dtypes):
    the per-call fingerprints read it, and some dtypes they cannot read."""
    _check_shapes(out, [s for s, _ in signature], label, TIMING)
    got = output_signature(out)
    if got != signature:
        raise StageFailure(TIMING, "dtype_mismatch", f"{label}: returned dtypes "
                           f"{[str(d) for _, d in got]}, not the reference's "
                           f"{[str(d) for _, d in signature]}")


def _timing(req, reference, reference_side, new_model, guard, device, snap, profile, result, kernels,
            signature: list[tuple], timed: Callable[[], None] = lambda: None) -> None:
    """Time the candidate on inputs it cannot predict: every call gets inputs generated afresh,
    or perturbed where the profile chose that (memoising by pointer or content returns stale
    results); every output is fingerprinted, and afterwards the last call is checked in full and
    calls drawn at random, unknowable to the candidate, at their fingerprints.
    With kernel provenance on, the kernels of further calls are recorded once that is done, and
    their outputs checked at their positions."""
    inputs = []  # the sampler fills it before every call, the first included
    # Drawn secretly whether or not kernels are recorded: a submission that cannot count to the
    # last timed call (the one checked in full) cannot be honest on it alone.
    trials = _timed_call_count(profile)
    # A task whose outputs barely depend on its own inputs (the profile's `insensitive`): a kept
    # output would pass every re-check of calls on them (red-team pass 42: computed once in
    # __init__, copied by a Triton kernel on every timed call, 0.3); its timed calls get the
    # signed, scaled inputs of its extra correctness trial, checked with that trial's tolerance.
    scaled = bool(profile.get("insensitive"))
    with _defence(result, "timed inputs (setup)"):
        sampler = TimedOutputSampler(signed_scaled(reference.get_inputs) if scaled
                                     else reference.get_inputs, inputs, device,
                                     secrets.randbits(62),  # (red-team pass 57)
                                     replayable=profile["replayable"],
                                     perturbing=bool(profile.get("perturb_timing_inputs")),
                                     spiked=req.task_id if spiked_task(req.task_id) else None,
                                     row_inputs=profile.get("row_inputs"),
                                     extras=[] if scaled else extra_trials(
                                         req.task_id, bool(profile.get("signed_trial")),
                                         reference_side.units))
    sampler.final = hooked_calls(device, trials)
    hooks_before = result.defence_seconds

    def observed(out):
        check_modes(TIMING, "a timed call")
        check_returned(inputs, out, TIMING, "a timed call", guard.reference_aliases)
        _check_signature(out, signature, "a timed call")
        sampler.observe(out)

    try:
        timing = time_forward(lambda: new_model(*inputs), device,
                              Hooks(around=lambda: guard,
                                    before=_accounted(sampler.refresh, result, "timed inputs"),
                                    after=_accounted(observed, result, "fingerprints",
                                                    lambda: _settle(device))),
                              trials=trials)
    except StageFailure as f:
        raise StageFailure(TIMING, f.error_class, f.feedback) from None
    except BaseException as exc:
        if guard.violation is None and _out_of_memory(exc):
            raise _memory_failure(exc, guard, device, TIMING, "a timed call") from None
        if guard.violation is None:
            raise StageFailure(TIMING, "runtime_error", "forward failed while being timed: "
                               + describe_exception(exc, guard.candidate_file)) from None
    if guard.violation is not None:
        raise StageFailure(TIMING, "forbidden_op", str(guard.violation))
    if not req.measure_guard_overhead:  # else after the bare timing below (a benchmark's)
        timed()
    _check_no_kernel_failure(guard, TIMING)
    hooks_spent = result.defence_seconds - hooks_before  # inside the timed loop's wall time
    with _defence(result, "integrity"):
        _check_integrity(snap, TIMING)
    with _defence(result, "timed-output re-checks"):
        _recheck(req, reference_side, sampler.checks(), cancelling=scaled)
    if timing.meaningful and timing.median_ms * timing.trials > timing.wall_s * 1e3 * 1.05:
        raise StageFailure(TIMING, "tampering", "device timings exceed the host clock's; "
                           "the timer was interfered with")
    # the timed loop's wall time holds the per-call hooks too: they are defences, not the candidate
    result.candidate_seconds += timing.candidate_s - hooks_spent
    if req.measure_guard_overhead and timing.meaningful:  # before CUPTI starts (it slows launches)
        bare = time_forward(lambda: new_model(*inputs), device)
        result.guard_overhead = (timing.median_ms - bare.median_ms) / bare.median_ms
    if req.measure_guard_overhead:
        timed()
    result.runtime_ms = timing.median_ms
    result.runtime_spread = timing.spread
    if timing.meaningful:
        result.timing_detail = {
            "clock_mhz": timing.clock_mhz, "clock_after_mhz": timing.clock_after_mhz,
            "tail_counted": timing.tail_counted, "trials": timing.trials,
            "tail_ms": round(timing.tail_ms, 4),
            "lead_ms": round(timing.lead_ms, 4), "tail_limit_ms": round(timing.tail_limit_ms, 4),
            "ref_clock_mhz": profile.get("ref_clock_mhz")}
    result.timing_meaningful = timing.meaningful
    result.issue_ms = round(timing.issue_ms, 4) if timing.meaningful else None
    result.ref_runtime_ms = profile["ref_runtime_ms"]
    result.speedup = profile["ref_runtime_ms"] / timing.median_ms if timing.median_ms > 0 else None
    if kernels is not None:
        with _defence(result, "provenance"):
            _record_kernels(new_model, inputs, sampler, guard, device, snap, result, kernels,
                            signature)
            _recheck(req, reference_side, sampler.always_checks(),
                     cancelling=bool(profile.get("insensitive")))


def _recheck(req, reference_side, checks, cancelling: bool = False) -> None:
    """The sampler's re-checks against the reference: one reference output per input set, made
    only now that the candidate's calls are over. `cancelling`: on signed inputs, atol is at
    least rtol times the output's root mean square (check_output)."""
    if torch.cuda.is_initialized():
        torch.cuda.synchronize()  # nothing of the candidate's still runs once we put back
    try:
        key = expected = check = None
        put_back = True  # once: the candidate's calls are over
        bounds: dict = {}  # the tolerances of `expected`'s outputs, per `cancelling`
        for check in checks:
            if check.key != key:
                expected = None
                key, expected = check.key, reference_side.output(check.inputs, put_back)
                put_back, bounds = False, {}
            if check.positions is None:
                check_output(check.output, expected, atol=req.atol, rtol=req.rtol,
                             task_id=req.task_id, label=check.label,
                             cancelling=cancelling or check.cancelling)
            else:
                _check_fingerprint(req, check.label, check.output, check.positions,
                                   check.shapes, expected, cancelling or check.cancelling, bounds)
        del check, expected
    except StageFailure as f:
        raise StageFailure(TIMING, f.error_class, f.feedback + "; outputs of timed calls must be "
                           "computed by those calls") from None


def _check_fingerprint(req, label: str, fingerprint, positions, shapes, expected,
                       cancelling: bool, bounds: dict) -> None:
    """A timed call's output at the secret positions against the reference's there, under the
    tolerance the whole output would get. `bounds`: those tolerances for this `expected`, kept
    by the caller across the checks that share it (a normalised task's peak and a signed
    round's RMS are each a pass over the whole reference output: 7.5 GiB at full-size
    Frobenius, whose shared references serve ~4 checks)."""
    refs = as_tensors(expected, "reference")
    if fingerprint is None or [r.shape for r in refs] != shapes:
        raise StageFailure(CORRECTNESS, "shape_mismatch", f"{label}: output shapes "
                           f"{shapes} differ from the reference's {[tuple(r.shape) for r in refs]}")
    if cancelling not in bounds:
        bounds[cancelling] = [output_tolerances(req.task_id, ref, req.atol, req.rtol, cancelling)
                              for ref in refs]
    for got, ref, idx, (atol, rtol) in zip(fingerprint, refs, positions, bounds[cancelling]):
        check_output(got, gather(ref, idx), atol=atol, rtol=rtol, label=label)


RECORDED_CALLS = 2
FIRST_RECORDING_AFTER = MIN_TRIALS  # timed calls, at least


def _timed_call_count(profile: dict) -> int:
    """How many calls are timed (before the recorded ones, with provenance on): drawn uniformly
    up to what the time budget allows for the *reference's* duration (trusted; a candidate's
    first calls could steer an estimate of its own), so counting calls cannot tell a submission
    which timed call is the last nor when its kernels are recorded. Dishonest on the first k
    calls only pays if k > half the timed calls, and is then caught whenever fewer than k calls
    are timed."""
    ceiling = trials_for(profile["ref_runtime_ms"] / 1e3)
    return FIRST_RECORDING_AFTER + secrets.randbelow(max(ceiling - FIRST_RECORDING_AFTER, 0) + 1)


def _record_kernels(model, inputs, sampler, guard, device, snap, result,
                    kernels: _KernelCheck, signature: list[tuple]) -> None:
    """Kernel provenance, after everything is timed and checked (CUPTI slows every launch once
    started): further guarded forwards on fresh timing inputs, each recorded and fingerprinted
    (re-checked afterwards, every one, at its positions); anything launched that is neither the
    submission's own kernel nor a layout copy fails the step."""
    for k in range(RECORDED_CALLS):
        sampler.refresh()
        label = f"recorded call #{k + 1}"
        try:
            out = _run_candidate(model, inputs, guard, device, label, result, kernels)
            _check_integrity(snap, TIMING)
            _check_signature(out, signature, label)
        except StageFailure as f:
            raise StageFailure(TIMING, f.error_class, f.feedback) from None
        sampler.observe(out, label=label, always=True)
        del out
    kernels.verify(TIMING, result)
