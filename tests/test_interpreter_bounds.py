"""Memory an interpreted kernel may touch: its launch's tensors' storages
(server/evaluation/interpreter_bounds.py). In Triton's interpreter a pointer is a host address,
so without this a kernel given `id(obj)` or a large offset reached any object of the process."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import triton.language as tl

from server.evaluation import front_end
from server.evaluation.guard import DispatchGuard
from server.evaluation.interpreter_bounds import KernelMemoryError
from tests.interpreted_launch import interpreted, launch


def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2, mask=mask)


def count(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_add(total_ptr + offs * 0, tl.load(x_ptr + offs, mask=mask), mask=mask)


def tile_copy(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    src = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (tl.program_id(0) * BLOCK, 0), (BLOCK, BLOCK), (1, 0))
    dst = tl.make_block_ptr(out_ptr, (M, N), (N, 1), (tl.program_id(0) * BLOCK, 0), (BLOCK, BLOCK), (1, 0))
    tl.store(dst, tl.load(src, boundary_check=(0, 1)), boundary_check=(0, 1))


def write_at(out_ptr, offset):
    tl.store(out_ptr + offset, 1.0)


def read_address(address, out_ptr):
    tl.store(out_ptr, tl.load(address.to(tl.pointer_type(tl.int64))))


def test_honest_kernels_touch_only_their_tensors():
    x = torch.randn(1000)
    out = torch.empty_like(x)
    guard, error = launch(interpreted(scale), (4,), x, out, 1000, BLOCK=256)  # masked tail lanes
    assert error is None and guard.kernel_error is None
    torch.testing.assert_close(out, x * 2)
    total = torch.zeros(1)
    guard, error = launch(interpreted(count), (4,), x, total, 1000, BLOCK=256)
    assert error is None and guard.kernel_error is None
    torch.testing.assert_close(total, x.sum().reshape(1), rtol=1e-4, atol=1e-4)
    m = torch.randn(20, 16)
    copy = torch.zeros_like(m)
    guard, error = launch(interpreted(tile_copy), (2,), m, copy, 20, 16, BLOCK=16)  # padded tile
    assert error is None and guard.kernel_error is None
    torch.testing.assert_close(copy, m)


def test_a_store_past_its_tensor_is_refused_before_it_happens():
    out, other = torch.zeros(4), torch.zeros(4)
    offset = (other.data_ptr() - out.data_ptr()) // 4
    guard, error = launch(interpreted(write_at), (1,), out, offset)
    assert error is not None and isinstance(guard.kernel_error, KernelMemoryError)
    assert "outside every tensor the launch was given" in str(guard.kernel_error)
    assert other.eq(0).all() and out.eq(0).all()


def test_a_pointer_made_from_an_objects_address_is_refused():
    array = np.zeros(4, dtype=np.float32)
    out = torch.zeros(1, dtype=torch.int64)
    guard, error = launch(interpreted(read_address), (1,), id(array) + 16, out)
    assert isinstance(guard.kernel_error, KernelMemoryError)  # sticky though the host caught it
    assert out.item() == 0


SEEN = []  # what host Python, reached from an interpreted kernel body, was handed


def text_of_block(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    SEEN.append(str(x) + repr(x) + f"{x}")


def kind_of_argument(out_ptr, z):
    SEEN.append(type(z))


def test_a_blocks_text_in_a_launch_shows_no_values(monkeypatch):
    """Red-team passes 30-31: the interpreter made a block's str/repr its values' text, which
    host Python a kernel reached parsed and computed on; a GPU block has no such text. (Triton's
    front end refuses this kernel first, a global it cannot read: set aside to test the hook.)"""
    monkeypatch.setattr(front_end, "check_launch", lambda *args, **kwargs: None)
    SEEN.clear()
    guard, error = launch(interpreted(text_of_block), (1,), torch.tensor([1.25, 2.5]), BLOCK=2)
    assert error is None and len(SEEN) == 1
    assert "1.25" not in SEEN[0] and "2.5" not in SEEN[0] and "Triton value" in SEEN[0]


def test_numpy_scalar_arguments_reach_a_kernel_as_python_numbers(monkeypatch):
    """Red-team pass 31: a numpy scalar argument reached the body as itself, whose methods
    (`reshape`, `repeat`) built host arrays there; it arrives as the Python number a GPU launch
    takes it for."""
    monkeypatch.setattr(front_end, "check_launch", lambda *args, **kwargs: None)  # host Python
    SEEN.clear()
    guard, error = launch(interpreted(kind_of_argument), (1,), torch.zeros(1), np.float32(2.0))
    assert error is None and guard.violation is None
    assert SEEN == [float]  # as a GPU launch takes it (np.float32 before: red-team pass 31)


def combine_max(a, b):
    return tl.maximum(a, b)


def test_a_jit_function_with_closure_cells_is_no_kernel_argument():
    """Red-team pass 31: a combine function defined in a factory ran a host function from its
    closure on the block's values (the interpreter's reduce calls the original function). The
    static check refuses kernels defined inside functions; a launch argument with closure cells
    is no kernel of the file either."""
    from server.evaluation.guard import _own_jit_function

    def make(act):
        def combine_max(a, b):
            return act(a, b)
        return combine_max

    guard = DispatchGuard("cpu")
    guard._files, guard.jit_names = {__file__}, {"combine_max"}
    assert _own_jit_function(interpreted(combine_max), guard)
    assert not _own_jit_function(interpreted(make(np.maximum)), guard)


def ragged_kinds(bounds_ptr, out_ptr):
    """Stores 1 where a loop index is a Triton value, 0 where it is a Python int."""
    start = tl.load(bounds_ptr)
    for b in range(start, start + 1):
        tl.store(out_ptr, 1 if isinstance(b, tl.tensor) else 0)
    for s in tl.static_range(2):
        tl.store(out_ptr + 1 + s, 1 if isinstance(s, tl.tensor) else 0)


def test_a_loop_index_is_a_triton_scalar_as_on_a_gpu():
    """Red-team pass 34: over bounds read from memory the interpreter bound the index to the
    loaded value as a Python int, on which host Python computed; compiled Triton binds a run-time
    scalar (a tl.static_range index stays a compile-time number on both)."""
    out = torch.full((3,), -1, dtype=torch.int32)
    guard, error = launch(interpreted(ragged_kinds), (1,), torch.tensor([7], dtype=torch.int32), out)
    assert error is None and guard.violation is None
    assert out.tolist() == [1, 0, 0]


def updated_kinds(out_ptr):
    """Stores 1 where an updated local is a Triton value, 0 where it is a Python number."""
    m: tl.float32 = 0.0
    k = 1
    k += 2
    tl.store(out_ptr, 1 if isinstance(m, tl.tensor) else 0)
    tl.store(out_ptr + 1, 1 if isinstance(k, tl.tensor) else 0)


def test_annotated_and_augmented_assignments_make_triton_values_as_on_a_gpu():
    """Red-team pass 35: `m: tl.float32 = 0.0` and `m += c` kept Python numbers in the
    interpreter (only a plain `x = v` became a Triton value), so a branch on loaded data chose
    which constants Python added; compiled Triton makes both tensors."""
    out = torch.full((2,), -1, dtype=torch.int32)
    guard, error = launch(interpreted(updated_kinds), (1,), out)
    assert error is None and guard.violation is None
    assert out.tolist() == [1, 1]


def combine_recording(a, b):
    r = 0.0
    SEEN.append(type(r))
    return a + b + r


combine_recorded = interpreted(combine_recording)


def reduce_by_combine(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr, tl.reduce(tl.load(x_ptr + tl.arange(0, BLOCK)), 0, combine_recorded))


def test_a_combine_runs_its_rewritten_body_as_a_jit_function_does(monkeypatch):
    """Red-team pass 36: the interpreter's tl.reduce called a combine's original Python, where
    `r = 0.0` stayed a Python float (a Triton value in compiled code and in every other body
    the interpreter runs). (The front end refuses the recording itself: set aside.)"""
    monkeypatch.setattr(front_end, "check_launch", lambda *args, **kwargs: None)
    SEEN.clear()
    out = torch.zeros(1)
    guard, error = launch(interpreted(reduce_by_combine), (1,), torch.arange(4.0), out, BLOCK=4)
    assert error is None and guard.violation is None
    assert SEEN and float not in SEEN
    assert out.item() == 6.0
