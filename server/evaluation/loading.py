"""Stage 2, compile: import the reference and the submission, build both models.

Sources are written to files in the evaluation's scratch directory because Triton reads a kernel's
source through `inspect`. Both models are built right after seeding the RNG with the same seed, so
parameters created in the same order get the same values (as in KernelBench). Like KernelBench,
models stay in training mode (BatchNorm normalises with batch statistics).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from types import ModuleType

import torch

from . import build_gate, self_check
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
    """The module at `path`, compiled from the file's text, never from a bytecode cache: the
    `__pycache__` beside it is in a scratch folder that every evaluation process of this worker
    (one user) can write, and Python runs an unchecked hash-based .pyc found there whatever the
    source says. A submission that got code past the rules planted one in a waiting spare's
    folder, and the next evaluation on that worker, any session's, ran it as the task's
    reference (red-team pass 50: a kernel writing zeros then passed ReLU's trials)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), path, "exec", dont_inherit=True)
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module


def load_reference(source: str, workdir: str) -> ModuleType:
    path = os.path.join(workdir, "reference.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    module = import_file(path, "kernel_env_reference")
    sys.modules.pop("kernel_env_reference", None)  # not importable by the submission
    return module


def candidate_path(workdir: str) -> str:
    return os.path.join(workdir, "submission.py")


def load_candidate(source: str, workdir: str, language: str, device: torch.device,
                   own_methods: tuple = ()) -> tuple[ModuleType, str]:
    """Import the submission; CUDA sources build here (load_inline runs at import). The methods
    whose `self` the static check trusted (`own_methods`) check it when called (self_check.py)."""
    if language == "cuda" and device.type != "cuda":
        raise StageFailure(COMPILE, "needs_gpu", "CUDA submissions need the gpu evaluator; this "
                           "server runs the cpu evaluator (no GPU). Submit Triton instead.")
    path = candidate_path(workdir)
    with open(path, "w", encoding="utf-8") as f:  # what the static check allowed it to declare
        f.write(source)
    module = _as_candidate(ConstructionGuard(path), "importing your module", path,
                           lambda: _import_checked(source, path, own_methods))
    return module, path


def _import_checked(source: str, path: str, own_methods: tuple) -> ModuleType:
    """import_file, with the code compiled here from `source` (the file's text, as checked)."""
    spec = importlib.util.spec_from_file_location("submission", path)
    module = importlib.util.module_from_spec(spec)
    code = self_check.instrument(source, path, own_methods)
    self_check.install(module.__dict__)
    sys.modules["submission"] = module
    exec(code, module.__dict__)
    return module


def _as_candidate(construction: ConstructionGuard, doing: str, candidate_file: str, make):
    """make() (the submission's code: its import, ModelNew's construction) under the
    construction guard; its refusal wins, even if the submission caught it, over any failure."""
    try:
        with construction:
            made = make()
    except StageFailure:
        raise
    except BaseException as exc:  # SystemExit included: this is the candidate's code
        _refused_while(construction, doing)
        raise StageFailure(COMPILE, "compile_error", f"{doing} failed: "
                           + describe_exception(exc, candidate_file)) from None
    _refused_while(construction, doing)
    return made


def _refused_while(construction: ConstructionGuard, doing: str) -> None:
    """A refused build (load_inline's gate), then the construction guard's refusal: each stands
    although the submission caught it."""
    if build_gate.refusal() is not None:
        raise build_gate.refusal() from None
    if construction.violation is not None:
        raise StageFailure(COMPILE, "forbidden_op", f"{construction.violation} (while {doing})")


def build_models(reference: ModuleType, candidate: ModuleType, candidate_file: str,
                 device: torch.device, eval_mode: bool = False):
    """Model, ModelNew and the reference's pristine state (see correctness.restore): Model and
    ModelNew from the same init inputs and the same seed, on the device; both in eval mode when
    the reference is random in training mode (dropout), or none could match it. On a GPU both
    are built there (their parameters initialised by the device: KernelBench's
    32768x32768 Linear layers took 7-11 s each to initialise on the host, most of a 25 s step);
    code that cannot run there (a CPU generator, a numpy array met by a device tensor) has
    both built on the host instead, as before."""
    init_inputs = list(reference.get_init_inputs())
    construction = ConstructionGuard(candidate_file)
    places = [device, torch.device("cpu")] if device.type == "cuda" else [device]
    for place in places:
        try:
            ref_model, ref_state, new_model = _built(reference, candidate, candidate_file,
                                                     init_inputs, construction, place, device,
                                                     last=place == places[-1])
            break
        except _TryOnHost:
            continue
    if not issubclass(type(new_model), torch.nn.Module):  # not isinstance: it reads `__class__`
        raise StageFailure(COMPILE, "compile_error", "ModelNew(...) did not build an nn.Module")
    if eval_mode:
        ref_model.eval()
        # ModelNew.train may be the submission's own code
        _as_candidate(construction, "switching ModelNew to eval mode (ModelNew.eval())",
                      candidate_file, lambda: new_model.eval())  # the attribute read too
    return ref_model, new_model, ref_state


class _TryOnHost(Exception):
    """Building on the device failed where building on the host may not."""


def _built(reference, candidate, candidate_file: str, init_inputs: list,
           construction: ConstructionGuard, place: torch.device, device: torch.device, last: bool):
    """Both models built with their parameters made on `place` (the default device while their
    constructors run), then moved to `device`, and the reference's pristine state, taken before
    any of the submission's code runs."""
    def make(cls):
        return _made_on(cls, init_inputs, place, device)

    try:
        ref_model = make(reference.Model)
    except Exception:  # noqa: BLE001 - the task's own code: only the host remains to try
        if last:
            raise
        raise _TryOnHost() from None
    ref_state = pristine_state(ref_model)
    doing = "building ModelNew(*get_init_inputs())"
    if last:
        return ref_model, ref_state, _as_candidate(construction, doing, candidate_file,
                                                   lambda: make(candidate.ModelNew))
    try:
        with construction:
            new_model = make(candidate.ModelNew)
    except BaseException:  # the submission's code; its refusal stands, else the host decides
        _refused_while(construction, doing)
        raise _TryOnHost() from None
    _refused_while(construction, doing)
    return ref_model, ref_state, new_model


def _made_on(cls, init_inputs: list, place: torch.device, device: torch.device):
    """`cls(*init_inputs)` right after seeding, its parameters made on `place` (the default
    device while its constructor runs), moved to `device`."""
    torch.manual_seed(WEIGHT_SEED)
    with torch.device(place) if place.type == "cuda" else contextlib.nullcontext():
        return cls(*init_inputs).to(device)


def reference_model(reference: ModuleType, device: torch.device) -> torch.nn.Module:
    """The task's Model alone (the profile's), built as build_models builds it: on a GPU
    there, on the host where its constructor cannot run on the device. On the meta device (the
    mock's counts) it stays on the host."""
    init_inputs = list(reference.get_init_inputs())
    if device.type == "cuda":
        try:
            return _made_on(reference.Model, init_inputs, device, device)
        except Exception:  # noqa: BLE001 - trusted code that needs the host: built there
            pass
    host = torch.device("cpu")
    return _made_on(reference.Model, init_inputs, host, host if device.type == "meta" else device)
