"""Triton's cache during a step (step_cache.py): the submission's compiled kernels in the step's
folder, launchers and the evaluator's kernels in the shared cache. The file routing on CPU; a
real compile's place on the GPU (tests/test_gpu.py)."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest
from triton import knobs

from server.evaluation import precision, step_cache
from server.evaluation.step_cache import StepCacheManager
from tests.conftest import ROOT

LAUNCHER = "__triton_launcher" + (__import__("sysconfig").get_config_var("EXT_SUFFIX") or ".so")


@pytest.fixture
def dirs(tmp_path):
    saved = (knobs.cache.manager_class, StepCacheManager.shared_root, StepCacheManager.step_root,
             StepCacheManager.evaluator_kernels)
    shared, step = tmp_path / "shared", tmp_path / "step"
    shared.mkdir()
    try:
        yield shared, step
    finally:
        knobs.cache.manager_class = saved[0]
        (StepCacheManager.shared_root, StepCacheManager.step_root,
         StepCacheManager.evaluator_kernels) = saved[1:]


def _written(manager: StepCacheManager, name: str) -> Path:
    return Path(manager.put(b"x", name))


def test_the_evaluator_kernel_list_is_every_kernel_it_defines():
    defined = set()
    for path in (ROOT / "server" / "evaluation").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and any(
                    ast.unparse(d).startswith(("triton.jit", "tl.jit", "jit")) for d in node.decorator_list):
                defined.add(node.name)
    assert defined == set(step_cache.EVALUATOR_KERNELS)


def test_a_submissions_kernels_go_to_the_step_launchers_and_evaluator_kernels_stay_shared(dirs):
    shared, step = dirs
    step_cache.install(str(shared), str(step), "@triton.jit\ndef relu_kernel(x_ptr): pass\n")
    assert knobs.cache.manager_class is StepCacheManager
    kernel = StepCacheManager("KEY")
    assert not (shared / "KEY").exists()  # looking up makes no folder in the shared cache
    for name in ("relu_kernel.ttir", "relu_kernel.cubin", "relu_kernel.json"):
        assert _written(kernel, name).parent == step / "KEY"
    group = kernel.put_group("relu_kernel.json", {"relu_kernel.cubin": str(step / "KEY" / "relu_kernel.cubin")})
    assert Path(group).parent == step / "KEY"
    assert kernel.get_group("relu_kernel.json") == {"relu_kernel.cubin": str(step / "KEY" / "relu_kernel.cubin")}
    assert _written(StepCacheManager("LAUNCH"), LAUNCHER).parent == shared / "LAUNCH"
    assert _written(StepCacheManager("UTILS"), "cuda_utils.so").parent == shared / "UTILS"
    assert _written(StepCacheManager("CMP"), "_partials.cubin").parent == shared / "CMP"
    assert Path(StepCacheManager("CMP").put_group("_partials.json", {})).parent == shared / "CMP"
    assert not list(shared.rglob("relu_kernel*"))


def test_a_submission_naming_its_kernel_like_the_evaluators_stays_in_the_step(dirs):
    shared, step = dirs
    step_cache.install(str(shared), str(step), "@triton.jit\ndef _partials(x_ptr): pass\n")
    assert _written(StepCacheManager("K"), "_partials.cubin").parent == step / "K"
    assert _written(StepCacheManager("D"), "_differs.cubin").parent == shared / "D"


@pytest.mark.parametrize("source", [
    "@triton.jit\ndef _\uff50artials(x_ptr): pass\n",  # a full-width letter: Python reads _partials
    "k = triton.jit(_partials)\n", "name = '_partials'\n", "def broken(:\n",
])
def test_any_way_of_naming_an_evaluator_kernel_keeps_it_in_the_step(dirs, source):
    shared, step = dirs
    step_cache.install(str(shared), str(step), source)
    assert _written(StepCacheManager("K"), "_partials.cubin").parent == step / "K"


def test_lookups_read_the_shared_cache_first(dirs):
    shared, step = dirs
    step_cache.install(str(shared), str(step), "")
    (shared / "OLD").mkdir()
    (shared / "OLD" / "k.cubin").write_bytes(b"shared")
    (step / "OLD").mkdir(parents=True)
    (step / "OLD" / "k.cubin").write_bytes(b"step")  # both have it: the shared one is read
    (shared / "OLD" / "__grp__k.json").write_text(json.dumps(
        {"child_paths": {"k.cubin": str(shared / "OLD" / "k.cubin"), "gone.ptx": "/nonexistent"}}))
    manager = StepCacheManager("OLD")
    assert manager.get_file("k.cubin") == str(shared / "OLD" / "k.cubin") and manager.has_file("k.cubin")
    assert manager.get_group("k.json") == {"k.cubin": str(shared / "OLD" / "k.cubin")}
    assert manager.get_file("k.ptx") is None and manager.get_group("other.json") is None
    _written(manager, "k.ptx")
    assert manager.get_file("k.ptx") == str(step / "OLD" / "k.ptx")


def test_every_compiled_file_the_step_was_handed_is_listed_for_the_precision_check(dirs):
    """A kernel compiled before into the shared cache writes nothing into the step's folder: the
    H200 run of session 33 found an fp8 matmul scored that way (the benchmark before the tests
    had compiled it), so the narrow-arithmetic check reads what Triton was handed, wherever."""
    shared, step = dirs
    step_cache.install(str(shared), str(step), "")
    (shared / "OLD").mkdir()
    ptx = shared / "OLD" / "mm_kernel.ptx"
    ptx.write_text("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {%f1}, %rd1, %rd2, 1, 1, 1;")
    (shared / "OLD" / "__grp__mm_kernel.json").write_text(json.dumps({"child_paths": {"mm_kernel.ptx": str(ptx)}}))
    assert StepCacheManager("OLD").get_group("mm_kernel.json") == {"mm_kernel.ptx": str(ptx)}
    written = _written(StepCacheManager("NEW"), "relu_kernel.ttir")
    assert StepCacheManager.served == [str(ptx), str(written)]
    assert precision.check_compiled(str(step), StepCacheManager.served).startswith("mm_kernel: wgmma")
    assert precision.check_compiled(str(step)) is None  # the step's folder alone misses it
    step_cache.install(str(shared), str(step), "")  # the next step starts with none
    assert StepCacheManager.served == []


def test_before_install_the_manager_is_tritons_own(dirs, monkeypatch, tmp_path):
    monkeypatch.setattr(StepCacheManager, "step_root", "")
    monkeypatch.setattr(knobs.cache, "dir", str(tmp_path / "plain"))
    assert Path(StepCacheManager("P").put(b"x", "k.cubin")).parent == tmp_path / "plain" / "P"
    assert os.path.isdir(tmp_path / "plain" / "P")
