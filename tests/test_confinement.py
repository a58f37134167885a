"""Evaluation processes write files only in their own folders (confinement.py, Landlock): what
a submission's native code writes cannot reach a sibling evaluation or a cache that later
evaluations load from."""

from __future__ import annotations

import os
import uuid

import pytest
import torch

from server.evaluation import confinement
from server.evaluation.children import _confine_native, run_in_child
from server.evaluators import CpuEvaluator, GpuEvaluator
from tests.conftest import KERNELS, kernel_source

pytestmark = pytest.mark.skipif(confinement.unavailable_reason() is not None,
                                reason=str(confinement.unavailable_reason()))
LIMITS = {"compile": 30, "correctness": 30, "timing": 30}


def _try_write(path: str) -> str:
    try:
        with open(path, "w") as f:
            f.write("x")
    except PermissionError:
        return "refused"
    return "written"


def _writes(outside: str):
    def job(progress):
        import triton

        shared = triton.knobs.cache.dir
        probe = os.path.join(shared, f"kernel_env_probe_{uuid.uuid4().hex}")
        result = {"own folder": _try_write("own.txt"), "outside": _try_write(outside),
                  "triton cache": _try_write(probe)}
        if os.path.exists(probe):
            os.unlink(probe)
        try:
            os.rename("own.txt", os.path.join(os.path.dirname(outside), "moved.txt"))
            result["rename out"] = "written"
        except PermissionError:
            result["rename out"] = "refused"
        return result
    return job


def test_an_evaluation_process_writes_only_its_folder_and_the_triton_cache(tmp_path):
    outside = str(tmp_path / "sibling.txt")
    payload = run_in_child(_writes(outside), "compile", LIMITS, 4.0).payload
    assert payload == {"own folder": "written", "outside": "refused", "triton cache": "written",
                       "rename out": "refused"}
    assert not os.listdir(tmp_path)


def _native(outside: str):
    def job(progress):
        import triton

        shared = triton.knobs.cache.dir
        _confine_native(os.getcwd())
        probe = os.path.join(shared, f"kernel_env_probe_{uuid.uuid4().hex}")
        return {"own folder": _try_write("own.txt"), "outside": _try_write(outside),
                "shared triton cache": _try_write(probe),
                "triton compiles into": os.path.relpath(triton.knobs.cache.dir, os.getcwd())}
    return job


def test_a_cuda_step_cannot_write_tritons_shared_cache(tmp_path):
    payload = run_in_child(_native(str(tmp_path / "x.txt")), "compile", LIMITS, 4.0).payload
    assert payload == {"own folder": "written", "outside": "refused", "shared triton cache": "refused",
                       "triton compiles into": "triton_cache"}


def test_a_later_layer_only_narrows():
    def job(progress):
        wide = os.path.join(os.getcwd(), "wide")
        narrow = os.path.join(wide, "narrow")
        os.makedirs(narrow)
        confinement.confine([narrow])
        back = confinement.confine([wide])  # cannot give back what the first layer took
        return {"layer": back, "wide": _try_write(os.path.join(wide, "a")),
                "narrow": _try_write(os.path.join(narrow, "b"))}

    payload = run_in_child(job, "compile", LIMITS, 4.0).payload
    assert payload == {"layer": None, "wide": "refused", "narrow": "written"}


RELU = """
import torch
import torch.nn as nn

try:
    with open({path}, "w") as f:
        f.write("planted by an evaluation process")
except PermissionError:
    pass
else:
    raise RuntimeError("an evaluation process wrote outside its folder")


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(64, 64)]


def get_init_inputs():
    return []
"""


def test_the_workers_evaluation_processes_are_confined(tmp_path):
    """Through the real worker host and its spare processes: the task's module, run there,
    cannot write outside the evaluation's folder (had it written, it would have raised)."""
    outside = tmp_path / "planted.txt"
    ev = CpuEvaluator()
    ev.pool.start(background=False)
    try:
        result = ev.evaluate(kernel_source("legit", "relu"), RELU.replace("{path}", repr(str(outside))),
                             task_id="confined/relu")
    finally:
        ev.close()
    assert result.error_class is None and result.correct, result.feedback
    assert not outside.exists()


def _in_tritons_shared_cache() -> str:
    """Triton's shared cache as the worker host's processes see it (same environment as this
    one), resolved here: in a CUDA step `triton.knobs.cache.dir` already names the step's own."""
    import triton

    return repr(os.path.join(triton.knobs.cache.dir, f"kernel_env_probe_{uuid.uuid4().hex}"))


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_cuda_step_on_the_gpu_builds_and_runs_but_cannot_write_tritons_cache():
    """A CUDA extension still builds (nvcc and ninja write in the evaluation's folder) and scores
    while the process cannot write Triton's shared cache: the task's module tried, in the
    profile and in the step, and would have raised had it written."""
    ev = GpuEvaluator((0,), stage_timeouts={"static_check": 10, "compile": 240, "correctness": 60,
                                            "timing": 60})
    ev.pool.start(background=False)
    try:
        result = ev.evaluate((KERNELS / "cuda" / "relu_cuda.py").read_text(),
                             RELU.replace("{path}", _in_tritons_shared_cache()), task_id="confined/relu_cuda",
                             language="cuda")
    finally:
        ev.close()
    assert result.stage == "scored" and result.correct, f"{result.error_class}: {result.feedback}"


def test_the_start_up_trial_confines_and_runs_the_evaluators_kernels():
    """What the worker host tries once before its spares confine themselves (a driver that
    needs a refused write turns confinement off for that worker, said on stderr)."""
    from server.evaluation.children import confinement_works

    assert confinement_works("cpu") is None


def test_a_failed_start_up_trial_says_what_failed(monkeypatch):
    from server.evaluation import pipeline
    from server.evaluation.children import confinement_works

    def refused(device):
        raise OSError(13, "Permission denied: the driver's write")

    monkeypatch.setattr(pipeline, "prewarm", refused)
    assert "the driver's write" in confinement_works("cpu")
