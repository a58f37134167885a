"""Stage 2, compile: import the reference and the submission, build both models.

Sources are written to files in the evaluation's scratch directory because Triton reads a kernel's
source through `inspect`. Both models are built right after seeding the RNG with the same seed, so
parameters created in the same order get the same values (as in KernelBench). Like KernelBench,
models stay in training mode (BatchNorm normalises with batch statistics).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from types import ModuleType

import torch

from .feedback import describe_exception
from .guard import ConstructionGuard
from .correctness import pristine_state
from .stages import COMPILE, StageFailure

WEIGHT_SEED = 42


@dataclass
class Loaded:
    reference: ModuleType
    candidate: ModuleType
    candidate_file: str


def import_file(path: str, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_reference(source: str, workdir: str) -> ModuleType:
    path = os.path.join(workdir, "reference.py")
    with open(path, "w") as f:
        f.write(source)
    module = import_file(path, "kernel_env_reference")
    sys.modules.pop("kernel_env_reference", None)  # not importable by the submission
    return module


def candidate_path(workdir: str) -> str:
    return os.path.join(workdir, "submission.py")


def load_candidate(source: str, workdir: str, language: str, device: torch.device) -> tuple[ModuleType, str]:
    """Import the submission; CUDA sources build here (load_inline runs at import)."""
    if language == "cuda" and device.type != "cuda":
        raise StageFailure(COMPILE, "needs_gpu", "CUDA submissions need the gpu evaluator; this "
                           "server runs the cpu evaluator (no GPU). Submit Triton instead.")
    path = candidate_path(workdir)
    with open(path, "w") as f:
        f.write(source)
    construction = ConstructionGuard(path)
    try:
        with construction:
            module = import_file(path, "submission")
    except StageFailure:
        raise
    except BaseException as exc:  # SystemExit included: the import is the candidate's code
        _refused_while(construction, "importing your module")
        raise StageFailure(COMPILE, "compile_error",
                           "importing your module failed: " + describe_exception(exc, path)) from None
    _refused_while(construction, "importing your module")
    return module, path


def _refused_while(construction: ConstructionGuard, doing: str) -> None:
    """The construction guard's refusal, even if the submission caught it."""
    if construction.violation is not None:
        raise StageFailure(COMPILE, "forbidden_op", f"{construction.violation} (while {doing})")


def build_models(reference: ModuleType, candidate: ModuleType, candidate_file: str,
                 device: torch.device, eval_mode: bool = False):
    """Model, ModelNew and the reference's pristine state (see correctness.restore): Model and ModelNew from the same init inputs and the same seed, on the device; both in
    eval mode when the reference is random in training mode (dropout), or none could match it."""
    init_inputs = list(reference.get_init_inputs())
    torch.manual_seed(WEIGHT_SEED)
    ref_model = reference.Model(*init_inputs).to(device)
    ref_state = pristine_state(ref_model)  # before any of the submission's code runs
    torch.manual_seed(WEIGHT_SEED)
    construction = ConstructionGuard(candidate_file)
    try:
        with construction:
            new_model = candidate.ModelNew(*init_inputs).to(device)
    except BaseException as exc:
        _refused_while(construction, "building ModelNew")
        raise StageFailure(COMPILE, "compile_error", "building ModelNew(*get_init_inputs()) "
                           "failed: " + describe_exception(exc, candidate_file)) from None
    _refused_while(construction, "building ModelNew")
    if not isinstance(new_model, torch.nn.Module):
        raise StageFailure(COMPILE, "compile_error", "ModelNew(...) did not build an nn.Module")
    if eval_mode:
        ref_model.eval()
        try:
            with construction:  # ModelNew.train may be the submission's own code
                new_model.eval()
        except BaseException as exc:
            _refused_while(construction, "switching ModelNew to eval mode")
            raise StageFailure(COMPILE, "compile_error", "ModelNew.eval() failed: "
                               + describe_exception(exc, candidate_file)) from None
        _refused_while(construction, "switching ModelNew to eval mode")
    return ref_model, new_model, ref_state
