"""The run-time backstop of the static rules on `self` (self_check.py): a method the static check
trusts runs only on its own class's instances, whatever route calls it."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import traceback

import pytest
import torch

from server.evaluation import self_check
from server.evaluation.own_attributes import own_methods
from server.evaluation.source_names import import_aliases
from server.evaluation.static_check import static_check
from tests.conftest import BUNDLED, KERNELS, ROOT

HOLDER = '''
import torch
import torch.nn as nn
from dataclasses import dataclass


class Holder:
    """kept"""
    def __init__(self):
        self._cdata = 0

    def addr(self):
        """also kept"""
        return self._cdata

    def fails(self):
        raise ValueError("where the traceback points")

    @classmethod
    def make(cls):
        return cls()


class Child(Holder):
    pass


@dataclass(slots=True)
class Point:
    x: int

    def double(self):
        return 2 * self.x
'''


@pytest.fixture(autouse=True)
def _own_record(monkeypatch):
    """The refusals these tests provoke in this process stay theirs (the record is per process:
    other tests' integrity checks read it)."""
    monkeypatch.setattr(self_check, "_found", [])


def _loaded(source: str) -> dict:
    tree = ast.parse(source)
    namespace = {"__name__": "probe"}
    self_check.install(namespace)
    exec(self_check.instrument(source, "probe.py", own_methods(tree, import_aliases(tree))), namespace)
    return namespace


def test_methods_run_on_their_instances_and_subclasses():
    ns = _loaded(HOLDER)
    holder, child = ns["Holder"](), ns["Child"]()
    assert holder.addr() == 0 and child.addr() == 0
    assert type(ns["Child"].make()) is ns["Child"]
    assert ns["Holder"].__doc__ == "kept" and ns["Holder"].addr.__doc__ == "also kept"
    assert ns["Point"](3).double() == 6  # remade by its decorator: not checked, and not trusted


def test_a_foreign_self_is_refused_before_the_body_runs_and_recorded():
    ns = _loaded(HOLDER)
    before = len(self_check.foreign_calls())
    with pytest.raises(self_check.ForeignSelf, match="Holder.addr` called with a Tensor"):
        ns["Holder"].addr(torch.zeros(1))

    class Pretender:  # isinstance() believes a `__class__` attribute; the check does not
        __class__ = property(lambda self: ns["Holder"])

    assert isinstance(Pretender(), ns["Holder"])
    with pytest.raises(self_check.ForeignSelf, match="with a Pretender"):
        ns["Holder"].addr(Pretender())
    with pytest.raises(self_check.ForeignSelf, match="Holder.make` called with a module as its class"):
        ns["Holder"].make.__func__(torch)
    assert len(self_check.foreign_calls()) == before + 3


def test_line_numbers_are_the_sources():
    ns = _loaded(HOLDER)
    try:
        ns["Holder"]().fails()
    except ValueError as exc:
        line = HOLDER.splitlines().index('        raise ValueError("where the traceback points")') + 1
        assert traceback.extract_tb(exc.__traceback__)[-1].lineno == line


def test_the_static_check_reports_the_methods_it_trusts():
    source = (KERNELS / "legit" / "relu.py").read_text()
    report = static_check(source, "triton")
    tree = ast.parse(report.source)
    trusted = {(n.lineno, n.col_offset) for n in ast.walk(tree)
               if isinstance(n, ast.FunctionDef) and n.name in ("__init__", "forward")}
    assert trusted and trusted <= set(report.own_methods)
    holder = ast.parse(HOLDER)
    trusted = set(own_methods(holder, {}))
    where = {n.name: (n.lineno, n.col_offset) for n in ast.walk(holder) if isinstance(n, ast.FunctionDef)}
    assert {where["addr"], where["make"], where["fails"]} <= trusted
    assert where["double"] not in trusted  # Point is remade by @dataclass(slots=True)


# A submission whose method reads the input tensor's private `_cdata` through `Holder.addr(x)`
# and swallows whatever that raises; the static check (which refuses this) is set aside, so the
# run-time check alone must fail the step.
FOREIGN_SELF_KERNEL = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class Holder:
    def __init__(self):
        self._cdata = 0

    def addr(self):
        return self._cdata


class ModelNew(nn.Module):
    def forward(self, x):
        try:
            Holder.addr(x)
        except Exception:
            pass
        out = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out
'''

PIPELINE_SCRIPT = '''
import ast, json, sys, tempfile
from server.evaluation import pipeline
from server.evaluation.own_attributes import own_methods
from server.evaluation.protocol import EvalRequest
from server.evaluation.source_names import import_aliases
from server.evaluation.static_check import StaticReport

code, reference = sys.argv[1], open(sys.argv[2]).read()
tree = ast.parse(code)
pipeline.static_check = lambda source, language: StaticReport(
    kernels=("relu_kernel",), autotuned=False, source=source,
    own_methods=own_methods(tree, import_aliases(tree)))
with tempfile.TemporaryDirectory() as workdir:
    req = EvalRequest(code=code, reference_source=reference, task_id="level1/19_ReLU",
                      device="cpu", input_seed=1, provenance="off")
    profile = pipeline.profile_reference(req, workdir)
    result = pipeline.evaluate_candidate(req, profile, workdir, lambda stage: None)
print(json.dumps([result.stage, result.error_class, result.reward, result.feedback]))
'''


def _through_the_pipeline(code: str) -> list:
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PIPELINE_SCRIPT, code,
                           str(BUNDLED / "level1" / "19_ReLU.py")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_foreign_self_fails_the_step_even_when_caught():
    stage, error_class, reward, feedback = _through_the_pipeline(FOREIGN_SELF_KERNEL)
    assert (stage, error_class, reward) == ("correctness", "tampering", 0.0), feedback
    assert "`Holder.addr` (line 19) ran with self a `Tensor`" in feedback


def test_the_same_kernel_with_its_own_instance_is_scored():
    honest = FOREIGN_SELF_KERNEL.replace("Holder.addr(x)", "Holder().addr()")
    stage, error_class, reward, feedback = _through_the_pipeline(honest)
    assert stage == "scored" and reward > 0, feedback


def test_a_subclass_built_on_a_tensor_is_not_its_bases_instance():
    """`class Mixed(Reader, nn.Parameter)`: `Mixed(x).addr()` ran Reader's trusted method on a
    tensor (red-team pass 44); a subclass may add the file's classes, exceptions and nn.Module
    classes only."""
    ns = _loaded('''
import abc
import torch.nn as nn


class Reader:
    def keep(self):
        self._cdata = 0

    def addr(self):
        return self._cdata


class Mixed(Reader, nn.Parameter):
    pass


class Layer(Reader, nn.Linear):
    pass


class Sub(Layer, abc.ABC):
    pass
''')
    with pytest.raises(self_check.ForeignSelf):
        ns["Mixed"](torch.zeros(2)).addr()
    assert "a subclass built on a tensor" in self_check.foreign_calls()[-1]
    layer = ns["Sub"](2, 2)  # nn.Module and the file's own classes below the method's class
    layer.keep()
    assert layer.addr() == 0 and len(self_check.foreign_calls()) == 1
