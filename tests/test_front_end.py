"""Triton's own front end on interpreted launches (server/evaluation/front_end.py): the cpu
evaluator accepts a kernel only when Triton's code generator would compile it for a GPU."""

import pytest

torch = pytest.importorskip("torch")
import triton.language as tl
from triton.compiler.errors import CompilationError

from server.evaluation import front_end
from tests.interpreted_launch import interpreted, launch


def dot_tiles(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :])
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], tl.dot(a, b))


def sum_of_squares(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    total = 0  # an int32 the loop re-assigns a float: the compiler refuses the loop
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        total += tl.sum(x * x)
    tl.store(out_ptr, total)


def square(x):
    return x * x


SCALE = 2.0


def squared(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, helper(tl.load(x_ptr + offs, mask=mask)), mask=mask)


def reads_a_plain_global(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * SCALE, mask=mask)


helper = interpreted(square)


def applied(x, F: tl.constexpr = helper):
    return F(x)


apply_default = interpreted(applied)


def squared_by_default(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, apply_default(tl.load(x_ptr + offs, mask=mask)), mask=mask)


def test_a_dot_on_tiles_below_the_compilers_minimum_is_refused_as_on_a_gpu():
    a = torch.randn(8, 8)
    c = torch.empty(8, 8)
    guard, error = launch(interpreted(dot_tiles), (1,), a, a, c, BLOCK=8)
    assert isinstance(guard.kernel_error, CompilationError)
    assert "K >= 16" in str(guard.kernel_error)
    guard, error = launch(interpreted(dot_tiles), (1,), torch.randn(16, 16), torch.randn(16, 16),
                          torch.empty(16, 16), BLOCK=16)  # the same kernel at 16: compiles and runs
    assert error is None and guard.kernel_error is None


def bf16_dot_tiles(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :]).to(tl.bfloat16)
    b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :]).to(tl.bfloat16)
    tl.store(c_ptr + r[:, None] * BLOCK + r[None, :], tl.dot(a, b))


def bf16_rounded(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(tl.bfloat16).to(tl.float32) * 2.0, mask=mask)


def test_bfloat16_arithmetic_is_refused_with_the_reason_and_its_casts_run():
    """The interpreter computes on bfloat16's raw bits (a dot of [0, 1) values came out ~1e11):
    such a launch fails as a compile error that says so; a round trip through bfloat16 runs (the
    interpreter's cast truncates where a GPU rounds to nearest: within bfloat16's step)."""
    a = torch.rand(16, 16)
    guard, error = launch(interpreted(bf16_dot_tiles), (1,), a, a, torch.empty(16, 16), BLOCK=16)
    assert isinstance(guard.kernel_error, front_end.InterpreterCompilationLimit)
    assert "cannot compute in bfloat16" in str(guard.kernel_error) and "tt.dot" in str(guard.kernel_error)
    x, out = torch.randn(64), torch.empty(64)
    guard, error = launch(interpreted(bf16_rounded), (1,), x, out, 64, BLOCK=64)
    assert error is None and guard.kernel_error is None
    assert bool(((out - 2 * x).abs() <= 2 * x.abs() * 2.0 ** -7).all())


def float32_named_bf16(x_ptr, out_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    bf16 = x * slope  # TTIR: %bf16 = tt.splat %slope, then arith.mulf %x, %bf16 on float32
    tl.store(out_ptr + offs, tl.where(x > 0, x, bf16), mask=mask)


def test_a_float32_value_named_bf16_is_not_bfloat16_arithmetic():
    """Red-team pass 65: the bfloat16 rule read the source's names in the TTIR (`%bf16`)."""
    x, out = torch.randn(64), torch.empty(64)
    guard, error = launch(interpreted(float32_named_bf16), (1,), x, out, 64, 0.5, BLOCK=64)
    assert error is None and guard.kernel_error is None
    assert torch.equal(out, torch.where(x > 0, x, x * 0.5))


def test_a_loop_carried_value_that_changes_type_is_refused():
    x = torch.randn(100)
    guard, error = launch(interpreted(sum_of_squares), (1,), x, torch.empty(1), 100, BLOCK=32)
    assert isinstance(guard.kernel_error, CompilationError)
    assert "Loop-carried variable total" in str(guard.kernel_error)


def test_a_plain_module_global_is_refused_as_the_compiler_refuses_it():
    x = torch.randn(100)
    guard, error = launch(interpreted(reads_a_plain_global), (1,), x, torch.empty(100), 100, BLOCK=128)
    assert "Cannot access global variable SCALE" in str(guard.kernel_error)


def test_a_helper_compiles_as_the_jit_function_a_gpu_holds():
    """(A @triton.jit function passed as a constexpr argument: tests/kernels/legit's
    relu_jit_function_as_constexpr, through the whole pipeline.)"""
    x = torch.randn(100)
    out = torch.empty_like(x)
    guard, error = launch(interpreted(squared), (1,), x, out, 100, BLOCK=128)
    assert error is None and guard.kernel_error is None
    torch.testing.assert_close(out, x * x)


@pytest.fixture
def compiles(monkeypatch) -> list:
    """The front end's code-generator runs, counted."""
    runs = []
    original = front_end._standard_library_as_jit

    def counted():
        runs.append(1)
        return original()
    monkeypatch.setattr(front_end, "_standard_library_as_jit", counted)
    return runs


def test_each_signature_compiles_once_and_the_standard_library_is_restored(compiles):
    kernel = interpreted(sum_of_squares)
    before = tl.sum
    for _ in range(2):
        with pytest.raises(CompilationError):
            front_end.check_launch(kernel, (torch.randn(8), torch.empty(1), 8), {"BLOCK": 8})
    kernel_ok = interpreted(dot_tiles)
    args = (torch.randn(16, 16), torch.randn(16, 16), torch.empty(16, 16))
    for _ in range(2):
        front_end.check_launch(kernel_ok, args, {"BLOCK": 16})
    assert len(compiles) == 3  # the refused kernel each time, the accepted one once
    assert tl.sum is before


def scaled_square(x):
    return x * x * SCALE  # a plain global: the compiler refuses it


def test_a_helper_rebound_after_a_launch_is_compiled_again(monkeypatch):
    """On a GPU a global a kernel read, rebound after it compiled, fails the next launch; here
    the next launch compiles again, so the interpreter never runs a body the compiler did not
    accept as it stands."""
    import sys
    kernel = interpreted(squared)
    args = (torch.randn(8), torch.empty(8), 8)
    front_end.check_launch(kernel, args, {"BLOCK": 8})
    monkeypatch.setattr(sys.modules[__name__], "helper", interpreted(scaled_square))
    with pytest.raises(CompilationError) as refused:  # at the call; the helper's error inside
        front_end.check_launch(kernel, args, {"BLOCK": 8})
    assert "Cannot access global variable SCALE" in str(refused.value.__cause__)


def test_feedback_on_a_helpers_compile_error_says_where_in_the_helper_and_why():
    """Triton's error at the call of a helper only points at the call; the reason is down its
    chain of causes (on a GPU too): the feedback shows the helper's line and the reason."""
    from server.evaluation.feedback import describe_exception
    kernel = interpreted(squared)
    args = (torch.randn(8), torch.empty(8), 8)
    global helper
    kept, helper = helper, interpreted(scaled_square)
    try:
        with pytest.raises(CompilationError) as refused:
            front_end.check_launch(kernel, args, {"BLOCK": 8})
    finally:
        helper = kept
    said = describe_exception(refused.value)
    assert "helper(tl.load(" in said  # the call in the kernel
    assert "return x * x * SCALE" in said and "Cannot access global variable SCALE" in said


WORKSPACE = None


def test_a_global_the_compiler_cannot_read_is_not_in_the_key_nor_kept_alive(compiles):
    """A workspace tensor rebound every call (an honest pattern) neither recompiles the kernel
    nor stays alive in the front end's cache (false-rejection probe 11: 256 MB a call)."""
    import gc
    import weakref
    global WORKSPACE
    kernel = interpreted(squared)
    args = (torch.randn(8), torch.empty(8), 8)
    for _ in range(3):
        WORKSPACE = torch.empty(1024)
        seen = weakref.ref(WORKSPACE)
        front_end.check_launch(kernel, args, {"BLOCK": 8})
    WORKSPACE = None
    gc.collect()
    assert seen() is None
    assert len(compiles) <= 1  # compiled once at most (an earlier test may have compiled it)


def test_a_jit_function_as_a_parameter_default_compiles():
    """(False-rejection probe 11: defaults had stayed InterpretedFunctions.)"""
    x = torch.randn(100)
    out = torch.empty_like(x)
    guard, error = launch(interpreted(squared_by_default), (1,), x, out, 100, BLOCK=128)
    assert error is None and guard.kernel_error is None
    torch.testing.assert_close(out, x * x)


def copied_body(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, -1.0, mask=offs < n)


class _ForeignRewriter:
    def rewrite_ast(self):
        return copied_body


def test_a_kernel_runs_only_what_the_interpreters_own_rewriter_made():
    """Red-team pass 73: `functools.update_wrapper(kernel, box)` (now refused statically) gave a
    kernel a `rewriter` of the submission's, whose `rewrite_ast` returned a body no rule read;
    the launch now fails before that body runs. The same kernel, untouched, launches."""
    x, out = torch.rand(64), torch.zeros(64)
    kernel = interpreted(squared)
    guard, error = launch(kernel, (1,), x, out, 64, BLOCK=64)
    assert error is None and torch.equal(out, x * x)
    out.zero_()
    swapped = interpreted(squared)
    swapped.rewriter = _ForeignRewriter()
    guard, error = launch(swapped, (1,), x, out, 64, BLOCK=64)
    assert error is not None and "interpreter machinery was replaced" in str(error)
    assert not (out == -1.0).any()


def test_a_kernel_function_that_wraps_another_fails_its_launch():
    """Red-team pass 66: `functools.update_wrapper(kernel.fn, other.fn)` made the interpreter
    take `other`'s source through `__wrapped__` while the front end compiled the kernel's own.
    (The static check refuses update_wrapper since pass 73; this is the run-time check.)"""
    import functools
    x, out = torch.rand(64), torch.zeros(64)
    kernel = interpreted(squared)
    functools.update_wrapper(kernel.fn, copied_body)
    guard, error = launch(kernel, (1,), x, out, 64, BLOCK=64)
    assert error is not None and "__wrapped__" in str(error)
    assert not (out == -1.0).any()
