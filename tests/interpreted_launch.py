"""Interpreted Triton launches under the cpu evaluator's guard, for tests that launch kernels
in the test process (the evaluator's own processes set TRITON_INTERPRET for good)."""

import triton

from server.evaluation.guard import DispatchGuard, install_interpreter_hooks


def interpreted(fn):
    """triton.jit, forced into the interpreter without leaking TRITON_INTERPRET to other tests."""
    with triton.knobs.runtime.scope():
        triton.knobs.runtime.interpret = True
        return triton.jit(fn)


def launch(kernel, grid, *args, **kwargs):
    """One launch with the interpreter hooks installed and a cpu guard active: (guard, error)."""
    install_interpreter_hooks()
    guard = DispatchGuard("cpu")
    with guard:
        try:
            kernel[grid](*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the guard keeps the failure anyway
            error = exc
        else:
            error = None
    return guard, error
