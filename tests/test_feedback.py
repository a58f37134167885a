"""Feedback from exceptions: what an agent reads when its submission fails to build or run."""

from __future__ import annotations

from server.evaluation.feedback import MAX_FEEDBACK_CHARS, describe_exception

NVCC_COMMAND = "[1/3] /usr/local/cuda/bin/nvcc " + " ".join(f"-I/include/path{i}" for i in range(200))


def failure(message: str) -> str:
    try:
        raise RuntimeError(message)
    except RuntimeError as exc:
        return describe_exception(exc)


def test_a_build_failure_starts_at_the_compilers_first_error():
    log = "\n".join([
        f"Error building extension 'kernel_env_bad_relu': {NVCC_COMMAND}",
        "FAILED: cuda.cuda.o",
        NVCC_COMMAND,
        "/tmp/kernel_env_eval_x/cuda.cu(5): warning: unused variable",
        '/tmp/kernel_env_eval_x/cuda.cu(6): error: identifier "undefined_function" is undefined',
        "1 error detected in the compilation of cuda.cu.",
    ])
    text = failure(log)
    assert 'identifier "undefined_function" is undefined' in text
    assert text.startswith("RuntimeError: Error building extension 'kernel_env_bad_relu'")
    assert len(text) < MAX_FEEDBACK_CHARS and "warning: unused variable" not in text


def test_a_one_line_error_is_kept_whole():
    assert failure("CUDA error: an illegal memory access was encountered") == \
        "RuntimeError: CUDA error: an illegal memory access was encountered"


def test_the_cpu_evaluators_limits_are_said_plainly(tmp_path, monkeypatch):
    """Errors that only Triton's interpreter on a machine without a GPU causes name that cause."""
    from server.evaluation.feedback import describe_exception

    source = tmp_path / "submission.py"
    source.write_text("from triton.language.extra import libdevice\n")
    none_op = TypeError("unsupported operand type(s) for *: 'float' and 'NoneType'")
    no_driver = RuntimeError("0 active drivers ([]). There should only be one.")
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert "libdevice functions are missing" in describe_exception(none_op, str(source))
    assert "no GPU driver" in describe_exception(no_driver, str(source))
    # honest launches wrapped in CUDA bookkeeping: not only allocations on 'cuda' fail there
    for cuda_call in (RuntimeError("invalid argument to exchangeDevice"),  # torch.cuda.device(None)
                      RuntimeError("Found no NVIDIA driver on your system."),  # synchronize()
                      ValueError("Expected a cuda device, but got: cpu")):  # torch.cuda.device(x.device)
        assert "leave out calls into torch.cuda" in describe_exception(cuda_call, str(source))
    monkeypatch.setenv("TRITON_INTERPRET", "0")  # a GPU: the error as it is
    assert describe_exception(none_op, str(source)).endswith("'NoneType'")


def test_libdevice_and_inline_assembly_on_the_cpu_evaluator_say_so(tmp_path, monkeypatch):
    """`tl.extra.cuda.libdevice.tanh` (the usual spelling) is never patched by the interpreter and
    failed for want of `_semantic`, which the feedback blamed on a module-level alias; inline
    assembly is NotImplemented there (red-team pass 72)."""
    source = tmp_path / "submission.py"
    source.write_text("from triton.language.extra.cuda import libdevice\n")
    unpatched = ValueError("Did you forget to add @triton.jit ? (`_semantic` argument must be "
                           "provided outside of JIT functions.)")
    asm = NotImplementedError("inline_asm not supported in interpreter mode")
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    said = describe_exception(unpatched, str(source))
    assert "libdevice functions are missing" in said and "module level" not in said
    assert "cannot run inline assembly" in describe_exception(asm, str(source))
    source.write_text("exp = tl.exp\n")  # no libdevice: the alias is the cause, and said so
    assert "module level" in describe_exception(unpatched, str(source))
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    assert "inline assembly" not in describe_exception(asm, str(source))


def test_formatting_computes_no_suggestions():
    """Python 3.12's traceback module suggests names ("Did you mean"): for an ImportError it
    imports the module the exception names, for an AttributeError it calls `dir()` on the object,
    from the evaluator's frames. A submission's exception is formatted without them."""
    import sys

    module = "this"  # prints the Zen of Python when imported
    assert module not in sys.modules
    wrong = ImportError("no", name=module)
    wrong.name_from = "zen"
    listed = []

    class Probe:
        def __dir__(self):
            listed.append(True)
            return ["attribute"]

    try:
        Probe().attribut
    except AttributeError as exc:
        missing = exc
    assert describe_exception(wrong) == "ImportError: no"
    assert describe_exception(missing) == "AttributeError: 'Probe' object has no attribute 'attribut'"
    assert module not in sys.modules and not listed
