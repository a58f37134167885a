"""Every kernel in tests/kernels through the real pipeline (worker process, Triton interpreter).

Each file names its task and the verdict it must get in its header:
    # task: level1/19_ReLU
    # expect: ok | <error class> | rejected (any refusal: memory corruption may end either way)
Legitimate kernels must be scored correct with a reward > 0; each adversarial kernel must get
reward 0 with the error class that names its exploit.
"""

from __future__ import annotations

import re

import pytest

from server.evaluators import CpuEvaluator
from tests.conftest import BUNDLED, KERNELS


def header(path) -> dict:
    fields = dict(re.findall(r"^# (task|expect|expect_gpu|expect_cpu|language|says|tries): (\S+)",
                             path.read_text(), re.M))
    assert "task" in fields and "expect" in fields, f"{path.name} lacks its # task/# expect header"
    return fields


def cases(kind: str):
    return [pytest.param(p, id=p.stem) for p in sorted((KERNELS / kind).glob("*.py"))]


@pytest.fixture(scope="module")
def evaluator():
    ev = CpuEvaluator(stage_timeouts={"static_check": 10, "compile": 60, "correctness": 30,
                                      "timing": 60}, memory_limit_gb=2.0)
    ev.pool.start(background=False)
    yield ev
    ev.close()


def evaluate(evaluator, path):
    fields = header(path)
    task = fields["task"]
    reference = (BUNDLED / f"{task}.py").read_text()
    return fields, evaluator.evaluate(path.read_text(), reference, task_id=task,
                                      language=fields.get("language", "triton"))


@pytest.mark.parametrize("path", cases("legit"))
def test_legitimate_kernel_is_scored(evaluator, path):
    fields, result = evaluate(evaluator, path)
    assert fields["expect"] == "ok"
    if "expect_cpu" in fields:  # honest, but beyond a machine without CUDA (torch.cuda calls):
        # refused here with the reason named (`says`), scored on the gpu evaluator (test_gpu)
        assert result.error_class == fields["expect_cpu"], f"{result.stage}: {result.feedback}"
        assert fields.get("says", "") in result.feedback, result.feedback
        return
    assert result.stage == "scored", f"{result.error_class}: {result.feedback}"
    assert result.correct and result.reward > 0
    assert result.trials_passed == result.trials_total >= 5


@pytest.mark.parametrize("path", cases("adversarial"))
def test_adversarial_kernel_is_rejected_for_its_reason(evaluator, path):
    """`# tries: N`: a defence that refuses the kernel in most steps, not all (a secret order
    the kernel can guess by luck): refused in one of N evaluations at least."""
    fields, result = evaluate(evaluator, path)
    for _ in range(int(fields.get("tries", 1)) - 1):
        if result.stage != "scored":
            break
        fields, result = evaluate(evaluator, path)
    # `expect_cpu`: an exploit of the GPU's code paths, which the cpu evaluator never takes
    # (Triton's driver): refused there for what it does on the CPU, `says` not looked for
    expected = fields.get("expect_cpu", fields["expect"])
    if expected == "ok":  # e.g. flooding stdout: harmless, must not break anything
        assert result.stage == "scored", result.feedback
        return
    if expected == "rejected":  # memory corruption: wrong output or a crash, by luck
        assert result.stage != "scored", result.feedback
    else:
        assert result.error_class == expected, f"{result.stage}: {result.feedback}"
        if "expect_cpu" not in fields:
            assert fields.get("says", "") in result.feedback, result.feedback
    assert result.reward == 0.0 and not result.correct
    assert result.feedback


def test_the_worker_survives_the_whole_adversarial_folder(evaluator):
    """After every exploit, a legitimate kernel still evaluates normally on the same pool."""
    _, result = evaluate(evaluator, KERNELS / "legit" / "relu.py")
    assert result.stage == "scored" and result.reward > 0


@pytest.mark.parametrize("path", cases("cuda"))
def test_cuda_submissions_on_the_cpu_evaluator_say_they_need_a_gpu(evaluator, path):
    fields, result = evaluate(evaluator, path)
    # refused by the static check, before building (`expect_cpu: needs_gpu` where only the
    # build gate, at run time on the GPU, sees what is wrong)
    if fields.get("expect_cpu", fields["expect"]) == "format_violation":
        assert result.error_class == "format_violation", result.feedback
        return
    assert result.error_class == "needs_gpu" and "gpu evaluator" in result.feedback


def test_row_separable_checks_through_the_pipeline(evaluator):
    """At a batch of 1024 ReLU is row-separable (the profile finds it): the sampled re-checks
    run the reference on each call's own 32 rows. An honest kernel is scored; one that zeroes
    every timed output but the last on the cpu evaluator, or leaves half the rows unwritten on
    those calls, is caught there."""
    task = "level1/19_ReLU"
    reference = (BUNDLED / f"{task}.py").read_text().replace("batch_size = 16", "batch_size = 1024")
    reference = reference.replace("dim = 4096", "dim = 8")
    assert "batch_size = 1024" in reference and "dim = 8" in reference
    honest = (KERNELS / "legit" / "relu.py").read_text()
    result = evaluator.evaluate(honest, reference, task_id=task, language="triton")
    assert result.stage == "scored" and result.correct, result.feedback
    zeros = (KERNELS / "adversarial" / "dishonest_on_most_timed_calls.py").read_text()
    half = zeros.replace("return out.zero_()", "out[x.shape[0] // 2:].zero_()\n            "
                         "relu_kernel[(triton.cdiv(n // 2, 1024),)](x, out, n // 2, BLOCK=1024)\n"
                         "            return out").replace("        if self.calls > 8", "        n = x.numel()\n        if self.calls > 8")
    for source in (zeros, half):
        result = evaluator.evaluate(source, reference, task_id=task, language="triton")
        assert result.error_class == "output_mismatch" and "sampled positions" in result.feedback, (
            result.stage, result.feedback)


def test_a_memory_hog_is_never_the_evaluators_failure(evaluator):
    """A module that holds all the memory the process may have makes the evaluator's own buffers
    fail after its forward; that was internal_error (which costs no turn: a free retry). Where the
    memory runs out varies with the process's state, never whose fault it is."""
    for _ in range(2):
        _, result = evaluate(evaluator, KERNELS / "adversarial" / "memory_hog_starves_the_evaluator.py")
        assert result.error_class in ("out_of_memory", "compile_error", "runtime_error"), (
            f"{result.stage}: {result.error_class}: {result.feedback}")


def test_memory_running_out_in_the_integrity_check_is_the_submissions_too(monkeypatch):
    """Seen once in the memory hog's run: the evaluator's failure handler checks the process's
    integrity first, and that check itself (listing /proc) found no memory left. That was
    internal_error, a free retry; after the submission's code ran it is out_of_memory."""
    from server.evaluation import pipeline
    from server.evaluation.protocol import EvalRequest
    from server.evaluation.stages import StageFailure

    def stages(req, profile, workdir, device, clock, result):
        clock.snap = {}  # the submission's code has run
        result.stage = "compile"
        raise MemoryError

    def starved_check(snap, stage):
        raise MemoryError

    monkeypatch.setattr(pipeline, "_run_stages", stages)
    monkeypatch.setattr(pipeline, "_check_integrity", starved_check)
    req = EvalRequest(code="", reference_source="", device="cpu")
    result = pipeline.evaluate_candidate(req, {}, ".", lambda stage: None)
    assert (result.stage, result.error_class) == ("compile", "out_of_memory"), result

    def tampered(snap, stage):  # a thread's name can carry the allocator's words
        raise StageFailure(stage, "tampering", "threads started: can't allocate memory (native)")

    monkeypatch.setattr(pipeline, "_check_integrity", tampered)  # what the check finds comes first
    result = pipeline.evaluate_candidate(req, {}, ".", lambda stage: None)
    assert result.error_class == "tampering", result


UNSTABLE_REFERENCE = """
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.sin(1e6 * x)  # float32's rounding of 1e6 * x moves the sine by up to ~0.03


def get_inputs():
    return [torch.rand(64, 64)]


def get_init_inputs():
    return []
"""

ZEROS = """
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        zero_kernel[(triton.cdiv(x.numel(), 1024),)](out, x.numel(), BLOCK=1024)
        return out
"""


def test_a_reference_that_misses_its_own_float64_output_is_said_unstable(evaluator, tmp_path):
    """Some KernelBench references amplify rounding (EfficientNetB2 in training mode; TF32
    convolutions through ResNet101 on the H200): the profile finds it, and a mismatch on such
    a task says so."""
    from server.evaluation.pipeline import UNSTABLE_NOTE, profile_reference
    from server.evaluation.protocol import EvalRequest

    relu = (BUNDLED / "level1" / "19_ReLU.py").read_text()
    for source, unstable in ((UNSTABLE_REFERENCE, True), (relu, False)):
        profile = profile_reference(EvalRequest(code="", reference_source=source), str(tmp_path))
        assert bool(profile["unstable"]) is unstable, profile["unstable"]
    assert "differ beyond" in profile_reference(
        EvalRequest(code="", reference_source=UNSTABLE_REFERENCE), str(tmp_path))["unstable"]
    wrong = evaluator.evaluate(ZEROS, UNSTABLE_REFERENCE, task_id="level1/999_sine_unstable")
    assert wrong.error_class == "output_mismatch" and UNSTABLE_NOTE in wrong.feedback
    stable = evaluator.evaluate(ZEROS, relu, task_id="level1/19_ReLU")
    assert stable.error_class == "output_mismatch" and UNSTABLE_NOTE not in stable.feedback
