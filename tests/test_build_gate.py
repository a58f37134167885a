"""The gate around load_inline: a CUDA submission's build is checked as it is called, whatever the
file's text showed the static check. Every refusal happens before anything is written or built,
so these run without a GPU or a compiler."""

from __future__ import annotations

import pytest
import torch.utils.cpp_extension as cpp_extension

from server.evaluation import build_gate
from server.evaluation.stages import StageFailure

CPP = "torch::Tensor relu(torch::Tensor x);"
CUDA = ("__global__ void relu_kernel(const float* x, float* y, long n) { }\n"
        "torch::Tensor relu(torch::Tensor x) { return x; }")


@pytest.fixture
def gate(monkeypatch):
    """The gate in front of a recorder standing in for torch's load_inline."""
    built = []
    monkeypatch.setattr(cpp_extension, "load_inline", lambda *a, **k: built.append((a, k)) or "ext")
    monkeypatch.setattr(build_gate, "_refusals", [])
    build_gate.install()
    assert cpp_extension.load_inline is build_gate.gated_load_inline
    yield built
    build_gate.install()  # idempotent
    monkeypatch.undo()


def test_a_plain_build_passes_through_unchanged(gate):
    assert cpp_extension.load_inline("relu_ext", CPP, cuda_sources=[CUDA], functions=["relu"],
                                     extra_cuda_cflags=["-O3", "--use_fast_math"], verbose=False) == "ext"
    (args, kwargs), = gate
    assert args == ("relu_ext", [CPP], [CUDA])
    assert kwargs == {"functions": ["relu"], "extra_cuda_cflags": ["-O3", "--use_fast_math"],
                      "verbose": False}
    assert build_gate.refusal() is None


@pytest.mark.parametrize("call, said", [
    (lambda li: li("kx;id >x;#", CPP, CUDA), "name"),
    (lambda li: li("ext", CPP, CUDA, functions={"relu": 'doc");} void f() {("'}), "functions"),
    (lambda li: li("ext", CPP, CUDA, functions=['relu", "x']), "functions"),
    (lambda li: li("ext", CPP, CUDA.replace("{ }", "{ cudaMallocManaged(0, 0); }", 1)), "mallocmanaged"),
    (lambda li: li("ext", [CPP, "#include <thrust/device_vector.h>"], CUDA), "thrust"),
    (lambda li: li("ext", CPP, CUDA, extra_cuda_cflags=["-DSTAGE=cudaMallocManaged"]), "flag"),
    (lambda li: li("ext", CPP, CUDA, extra_ldflags=["-lcublas"]), "flag"),
    (lambda li: li("ext", CPP, CUDA, build_directory="/tmp"), "build_directory"),
    (lambda li: li("ext", CPP, CUDA, None, ["relu"]), "by position"),
    (lambda li: li("ext", CPP, CUDA, verbose="yes"), "verbose"),
    (lambda li: li("ext", CPP, CUDA, functions=["relu", "system"]), "system"),
    (lambda li: li("ext", CPP, CUDA, functions=["gelu"]), "do not define"),
    (lambda li: li("ext", [CPP + "\n// the end \\"], "int hidden() { return system(0); }\n" + CUDA),
     "system"),
], ids=["shell-in-name", "docstring", "quoted-function", "managed-memory", "thrust-include",
        "define-flag", "library-flag", "build-directory", "positional", "verbose-object",
        "libc-bound", "undefined-binding", "comment-spilling-into-the-next-file"])
def test_what_is_passed_is_checked(gate, call, said):
    with pytest.raises(StageFailure) as refused:
        call(cpp_extension.load_inline)
    assert refused.value.error_class == "format_violation" and said in refused.value.feedback.lower()
    assert gate == []  # nothing was built
    assert build_gate.refusal() is refused.value  # sticky when the submission catches it


def test_a_list_changed_after_it_was_read_is_checked_as_built(gate):
    """The static check reads a name's literal; a list can change afterwards."""
    sources = [CUDA]
    sources[0] = CUDA.replace("{ }", "{ cudaMallocManaged(0, 0); }", 1)
    with pytest.raises(StageFailure):
        cpp_extension.load_inline("ext", CPP, cuda_sources=sources)
    assert gate == []


def test_the_worker_host_does_not_import_cpp_extension():
    """Importing torch.utils.cpp_extension counts the CUDA devices, which poisons every later fork
    of the worker host for CUDA (the H200 run's children all failed): the gate imports it in the
    evaluation process only."""
    import subprocess
    import sys
    code = ("import sys, server.pool, server.evaluation.pipeline, server.evaluation.children; "
            "print('torch.utils.cpp_extension' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
