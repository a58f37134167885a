"""Whose device memory ran out: this evaluation's, or processes beside it.

An out-of-memory error in a step is charged to the submission (its module or kernels hold what
the evaluation needs). That is wrong when the device's memory is held by other processes: an
earlier step's process still tearing down tens of GiB, or another user of the GPU. Session 39's
H100 (80 GB) failed an honest full-size KernelBench ReLU on `torch.empty_like(x)` with 1 GiB
free and another process reported at 71 GiB, and the step counted as the submission's.

What this process holds is PyTorch's reservation, its own CUDA context and loaded modules
(NON_PYTORCH_ALLOWANCE), and the local memory the driver reserves for its kernels' stacks and
register spills (the context's per-thread stack size times every thread the device can hold
resident: a Triton kernel spilling 77 KB a thread ties up 20 GiB of an H100 that PyTorch never
counts). A Triton submission allocates device memory only through PyTorch otherwise (its
kernels' scratch included), so the rest of what the device reports used is held by other
processes. A CUDA extension can call cudaMalloc itself: there the rest may be the submission's
own, and the step stays charged to it, the memory picture in its feedback. Where the stack size
cannot be read, nothing is excused.

Only a shortage PyTorch's allocator itself met is excused (red-team pass 79: a forward raising
`torch.OutOfMemoryError` itself, beside a crowded device, bought uncounted turns): the allocator
tells an observer attached here of every request it could not meet, with the request's size, and
the step is excused only if such a request came since the step began and would have fit in the
memory free then plus what others hold (a request past that fails on an empty device too). And
what others hold is at most what was held outside this process as the step began, before any
submission code: memory its `__init__` had libraries hold outside PyTorch's allocator (handles,
plans; pass 79) is not taken for another process's. Nor is the allocator's own fragmentation the
submission's: what it held in no live tensor as it gave up (pieces of segments that live tensors
also occupy, which it cannot release; an honest full-size step reserves 70 GiB and more for
24-35 GiB of live tensors on the H200) counts with what others hold. Its counts are read as the
observer is called, before the error unwinds and frees what the failing frames held.
"""

from __future__ import annotations

import ctypes
import dataclasses

import torch

GIB = float(1 << 30)
# The context, the evaluator's and the submission's loaded kernels, library handles: what one
# process holds outside PyTorch's allocator (~0.5 GiB for a context on an H100 or H200).
NON_PYTORCH_ALLOWANCE = 2 * (1 << 30)
# Held elsewhere past this share of the device (and past MIN_ELSEWHERE): not the submission's.
ELSEWHERE_SHARE = 0.25
MIN_ELSEWHERE = 4 * (1 << 30)


@dataclasses.dataclass(frozen=True)
class AllocatorOom:
    """A request PyTorch's allocator could not meet, as its out-of-memory observer told it, and
    the allocator's own counts then (before the error unwound and freed what its frames held)."""
    requested: int  # bytes asked for (rounded as the allocator rounds them)
    free: int  # the device's free bytes as the allocator gave up
    reserved: int = 0  # this process's allocator's segments, after it released what it could
    allocated: int = 0  # of those, in live tensors

    @property
    def fragments(self) -> int:
        """Reserved but in no live tensor, after the allocator released every cached segment it
        could: free pieces of segments that live tensors also occupy, too small or scattered
        for the request. The allocator's doing, not a live tensor's."""
        return max(0, self.reserved - self.allocated)


@dataclasses.dataclass(frozen=True)
class MemoryPicture:
    """The device's memory as the driver and this process's allocator report it, in bytes."""
    total: int
    free: int
    reserved: int  # by this process's PyTorch allocator
    allocated: int  # of that, in live tensors
    local: int | None = None  # the driver's local memory for this process's kernels (None: unknown)
    oom: AllocatorOom | None = None  # the allocator's last unmet request this step (None: none)
    held_before: int | None = None  # `elsewhere` as the step began (None: not read)

    @property
    def elsewhere(self) -> int:
        """Used on the device beyond this process's reservation, its local memory and its own
        allowance."""
        return max(0, self.total - self.free - self.reserved - (self.local or 0)
                   - NON_PYTORCH_ALLOWANCE)

    def describe(self) -> str:
        return (f"the device had {self.free / GIB:.1f} of {self.total / GIB:.1f} GiB free; this "
                f"evaluation's allocator held {self.reserved / GIB:.1f} GiB "
                f"({self.allocated / GIB:.1f} GiB in live tensors, yours and the evaluator's)"
                + (f", its kernels' local memory {self.local / GIB:.1f} GiB" if self.local else "")
                + ", and "
                f"other processes or memory allocated outside PyTorch about "
                f"{self.elsewhere / GIB:.1f} GiB"
                + (f"; the request that failed asked {self.oom.requested / GIB:.2f} GiB while the "
                   f"allocator held {self.oom.reserved / GIB:.1f} GiB, "
                   f"{self.oom.allocated / GIB:.1f} GiB in live tensors" if self.oom else ""))


def picture(device: torch.device) -> MemoryPicture | None:
    """The memory picture now, or None off a GPU or where the driver cannot say."""
    if device.type != "cuda":
        return None
    try:
        free, total = _mem_get_info(device)
        return MemoryPicture(total, free, _reserved(device), _allocated(device),
                             _local_memory(device), step_oom(),
                             _WATCH["held_before"])
    except RuntimeError:
        return None


CU_LIMIT_STACK_SIZE = 0  # cuda.h's CUlimit


def _driver():
    """The CUDA driver's library, opened once as the evaluator is imported (before any
    submission's code: a library opened later would look like the submission's doing); None
    where there is none (a host without a GPU)."""
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None


_LIBCUDA = _driver()
# Everything an out-of-memory error's picture calls, bound now, before any submission code: a
# name looked up at the error would go through whatever the submission left in its place.
_GET_LIMIT = getattr(_LIBCUDA, "cuCtxGetLimit", None)
if _GET_LIMIT is not None:
    _GET_LIMIT.argtypes = (ctypes.POINTER(ctypes.c_size_t), ctypes.c_int)
    _GET_LIMIT.restype = ctypes.c_int
_mem_get_info, _reserved, _allocated = (torch.cuda.mem_get_info, torch.cuda.memory_reserved,
                                        torch.cuda.memory_allocated)
_on_device, _properties = torch.cuda.device, torch.cuda.get_device_properties


def _local_memory(device: torch.device) -> int | None:
    """The local memory the driver holds for this context's kernels: the per-thread stack size
    (which grows to the largest spill of a kernel loaded) times the threads the device can hold
    resident. None where the driver's library or the limit cannot be read."""
    if _GET_LIMIT is None:
        return None
    try:
        per_thread = ctypes.c_size_t()
        with _on_device(device):
            if _GET_LIMIT(ctypes.byref(per_thread), CU_LIMIT_STACK_SIZE) != 0:
                return None
        props = _properties(device)
        return per_thread.value * props.multi_processor_count * props.max_threads_per_multi_processor
    except (AttributeError, RuntimeError):
        return None


# The allocator's unmet requests in this process (the observer appends; a list, not a rebound
# name: the evaluator's module globals are watched for changes) and where this step's begin.
_OOMS: list[AllocatorOom] = []
_WATCH = {"attached": False, "step_start": 0, "call_start": 0, "held_before": None}


def _observe(device: int, requested: int, total: int, free: int) -> None:
    """The allocator's out-of-memory observer (it calls it as it raises, its lock released and
    the GIL taken): the request, and the allocator's counts at that moment."""
    try:
        reserved, allocated = int(_reserved(device)), int(_allocated(device))
    except Exception:  # noqa: BLE001 - never raise into the allocator; unknown counts excuse less
        reserved = allocated = 0
    _OOMS.append(AllocatorOom(int(requested), int(free), reserved, allocated))


def watch(device: torch.device) -> None:
    """At a step's start, before any submission code: the observer attached (once a process,
    once CUDA's allocator exists; torch.cuda.init() starts it) and the step's unmet requests
    counted from here. Where it cannot be attached (another allocator backend), no shortage is
    ever excused."""
    _WATCH["step_start"] = _WATCH["call_start"] = len(_OOMS)
    _WATCH["held_before"] = None
    if device.type != "cuda":
        return
    if not _WATCH["attached"]:
        try:
            torch.cuda.init()
            torch._C._cuda_attach_out_of_memory_observer(_observe)
            _WATCH["attached"] = True
        except (AttributeError, RuntimeError):
            return
    before = picture(device)
    _WATCH["held_before"] = before.elsewhere if before is not None else None


def call_begins() -> None:
    """A guarded candidate call begins (DispatchGuard's entry): unmet requests before it are not
    what its out-of-memory error can be excused by. A request PyTorch met on a retry (cuDNN asks
    for a smaller workspace when a convolution's first one fails) leaves a record; with it, an
    `OutOfMemoryError` a later call raised itself, beside a crowded device, would have been
    taken for the allocator's (a review of pass 79's fix, session 42)."""
    _WATCH["call_start"] = len(_OOMS)


def step_oom() -> AllocatorOom | None:
    """The allocator's last unmet request since the step's last candidate call began, or since
    the step began before any (None: none)."""
    start = max(_WATCH["step_start"], _WATCH["call_start"])
    return _OOMS[-1] if len(_OOMS) > start else None


def held_elsewhere(memory: MemoryPicture | None, language: str | None) -> bool:
    """Whether a shortage is not the submission's doing: a Triton submission's device memory is
    all in PyTorch's allocator's live tensors, so other processes' memory (what the device reports
    used beyond this process) and the allocator's fragments are not its own; the allocator itself
    failed this step, on a request that would have fit without those."""
    if (memory is None or language != "triton" or memory.local is None or memory.oom is None
            or memory.held_before is None):
        return False
    # not the submission's: other processes' (as much as they held as the step began, at most)
    # and the allocator's fragments as it gave up (an honest full-size step reserves 70 GiB and
    # more for 24-35 GiB of live tensors on the H200: bench/results/*step-profile*)
    not_its = min(memory.elsewhere, memory.held_before) + memory.oom.fragments
    return (not_its >= max(ELSEWHERE_SHARE * memory.total, MIN_ELSEWHERE)
            and memory.oom.requested <= memory.oom.free + not_its)


class MemoryHeldElsewhere(RuntimeError):
    """The device ran out because other processes hold its memory: the evaluator's failure
    (internal_error: the turn is not counted)."""

    def __init__(self, memory: MemoryPicture, where: str):
        super().__init__(f"{where}: out of device memory held outside this evaluation, not by your "
                         f"submission ({memory.describe()}); submit it again")


def out_of_device_memory(device: torch.device, language: str | None, where: str) -> str:
    """Called on a device out-of-memory error: raises MemoryHeldElsewhere where other processes
    hold the memory; else the memory picture, for the submission's feedback ("" off a GPU)."""
    memory = picture(device)
    if held_elsewhere(memory, language):  # (not chained: formatting the submission's exception
        raise MemoryHeldElsewhere(memory, where) from None  # would run its code)
    return f" ({memory.describe()})" if memory is not None else ""
