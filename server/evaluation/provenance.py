"""Kernel provenance on the GPU: which device kernels a guarded forward really launched.

The dispatch guard sees aten operators on its own thread. It cannot see a vendor library called
from an extension's C++ (cuBLAS, cuDNN, CUTLASS templates), kernels launched from threads an
extension starts, or at::native functions called past the dispatcher. CUPTI, through
torch.profiler, sees every kernel the process launches. A recorded forward may launch only:
the submission's own Triton kernels (by the name of a @triton.jit function it defines), its
extension's own `__global__` functions, and the copy/fill kernels of the layout operations the
guard allows.

CUPTI's start-up costs about a second per process on the H200 (5-6 s while the file cache is
cold), each recording afterwards milliseconds; and once started it slows every later launch in
the process, so the pipeline records only after the timing stage has measured everything.
"""

from __future__ import annotations

import contextlib
import re
import time

import torch
import torch._dynamo  # noqa: F401  The profiler imports it on first use, and that import rebinds
# torch.manual_seed: imported here, in the worker host, it happens before any integrity snapshot.

from .cuda_sources import code_and_literals

# Kernels that the allowed layout operations launch (aten's names as the profiler reports them).
LAYOUT_KERNELS = (
    re.compile(r"^Memcpy (DtoD|HtoD)\b"),  # device copies; HtoD: literals made into tensors
    re.compile(r"^Memset\b"),
    re.compile(r"^void at::native::.*\b(direct_copy_kernel_cuda|FillFunctor)\b"),  # copy_, fill_
    re.compile(r"^void at::native::.*\bCatArrayBatchedCopy\w*\b"),  # cat, stack
)
# Namespaces a submission may not claim for its own kernels: a kernel named there is a library's.
RESERVED_NAMESPACES = {"at", "c10", "torch", "cub", "thrust", "cutlass", "cute", "std", "cuda",
                       "cublas", "cublasLt", "cudnn", "flash", "nvidia", "pytorch", "internal"}
# Text only library kernels carry: in the qualified name (a submission's templates may well take
# at::/c10:: types as arguments), or anywhere (vendor types need vendor headers, refused in sources).
QUALIFIER_MARKERS = ("at::", "c10::", "cub::", "thrust::", "cute::", "flash::", "cutlass::")
ANYWHERE_MARKERS = ("cublas", "cudnn", "cutlass", "xmma", "nvjet")
VENDOR_NAME = re.compile(r"^(sm\d+_|(ampere|turing|volta|hopper|blackwell)_\w*(gemm|conv|fprop|dgrad|wgrad)|"
                         r"[sdhcz]gemm_(largek|\d+x\d+)|gemmSN_|gemmk1_|gemv2[NT]_|scal_kernel$|"
                         r"splitKreduce|redzone|nvjet|cutlass|cudnn|cublas|xmma)")
_GLOBAL_FN = re.compile(r"__global__\s+[\w\s:<>,*&]*?\b(\w+)\s*\(")
_NAMESPACE = re.compile(r"\bnamespace\s+([\w:]+)\s*\{")
_ANONYMOUS = re.compile(r"\bnamespace\s*\{")


def own_kernels(language: str, triton_kernels: tuple[str, ...], cuda_source: str = "") -> "OwnKernels":
    """The kernels a submission defines: its @triton.jit functions (found by the static check)
    or, for CUDA, the `__global__` functions and namespaces in the sources load_inline builds."""
    if language != "cuda":
        return OwnKernels(frozenset(triton_kernels), frozenset())
    text = _strip_launch_bounds(code_and_literals(cuda_source))
    names = frozenset(_GLOBAL_FN.findall(text)) - {"void"}
    namespaces = {part for spec in _NAMESPACE.findall(text) for part in spec.split("::")}
    if _ANONYMOUS.search(text):
        namespaces.add("(anonymous namespace)")
    return OwnKernels(names, frozenset(namespaces - RESERVED_NAMESPACES), cuda=True)


_LAUNCH_BOUNDS = re.compile(r"__launch_bounds__\s*\(")
def _strip_launch_bounds(text: str) -> str:
    """Remove `__launch_bounds__(...)`, nested parentheses included; an unbalanced one ends at
    the next `{` or `;`."""
    out, i = [], 0
    while (m := _LAUNCH_BOUNDS.search(text, i)) is not None:
        out.append(text[i:m.start()])
        k, depth = m.end(), 1
        while k < len(text) and depth and text[k] not in "{;":
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
        out.append(" ")
        i = k
    out.append(text[i:])
    return "".join(out)


class OwnKernels:
    def __init__(self, names: frozenset, namespaces: frozenset, cuda: bool = False):
        self.names, self.namespaces, self.cuda = names, namespaces, cuda

    def accepts(self, kernel: str) -> bool:
        if is_layout_kernel(kernel):
            return True
        if is_library_kernel(kernel):
            return False
        if not self.cuda:
            return kernel in self.names  # Triton reports a kernel by its function's name
        *scopes, base = _qualified_name(kernel).split("::")
        return base in self.names and all(s in self.namespaces for s in scopes)


def is_layout_kernel(kernel: str) -> bool:
    return any(p.search(kernel) for p in LAYOUT_KERNELS)


def is_library_kernel(kernel: str) -> bool:
    """Named like a library's kernel: torch's, cuBLAS's, cuDNN's, CUTLASS's (never claimable)."""
    qualified = _qualified_name(kernel)
    return (any(m in qualified for m in QUALIFIER_MARKERS) or any(m in kernel for m in ANYWHERE_MARKERS)
            or bool(VENDOR_NAME.search(qualified.split("::")[-1])))


def _qualified_name(kernel: str) -> str:
    """'void ns::relu_kernel<float>(float const*, ...)' -> 'ns::relu_kernel'."""
    name = kernel[5:] if kernel.startswith("void ") else kernel
    end = len(name)
    for i, ch in enumerate(name):
        if ch in "<(" and not name.startswith("(anonymous namespace)", i):
            end = i
            break
    return name[:end].strip()


def foreign_kernels(seen: list[str], own: OwnKernels) -> list[str]:
    return [k for k in seen if not own.accepts(k)]


def launched_own(window: list[str], own: OwnKernels) -> bool:
    """Whether one recorded forward launched a kernel of the submission's own (not only layout
    copies): an output made without one was computed where no recorder looks (on the host,
    copied in), since every honest forward launches its kernels."""
    return any(own.accepts(k) and not is_layout_kernel(k) for k in window)


def describe_foreign(foreign: list[str]) -> str:
    """What ran, by kind. torch's kernels are named (no submission can claim them); other names
    are not echoed, since a name shown is a name a submission could copy for its own kernel."""
    torch_kernels = [k for k in foreign if any(m in _qualified_name(k) for m in ("at::", "c10::"))]
    vendor = [k for k in foreign if k not in torch_kernels and is_library_kernel(k)]
    other = len(foreign) - len(torch_kernels) - len(vendor)
    parts = []
    if torch_kernels:
        shown = "; ".join(k if len(k) < 120 else k[:117] + "..." for k in torch_kernels[:2])
        parts.append(f"{len(torch_kernels)} of torch's compute kernels ({shown})")
    if vendor:
        parts.append(f"{len(vendor)} vendor-library kernel(s) (cuBLAS/cuDNN/CUTLASS)")
    if other:
        parts.append(f"{other} kernel(s) your source does not define")
    return ", ".join(parts)


class KernelRecorder:
    """Records the names of the device kernels launched inside `record()` windows.

    Once CUPTI has started in a process it stays attached (torch's profiler does not tear it
    down), and every later launch pays for it: on the H200 a process that had started it timed a
    64k-element ReLU at 0.16 ms instead of 0.03 ms, and 6 GiB ones about 3% slower. So nothing is
    ever timed in a process after `start()`; the pipeline records only once timing is done."""

    def __init__(self):
        self.seen: list[str] = []
        self.windows: list[list[str]] = []  # the kernels of each recording
        self.working = False  # CUPTI recorded the start-up's own kernel
        self.started = False
        self.start_s = 0.0  # CUPTI's start-up in this process
        self.overhead_s = 0.0  # starting and stopping the recordings themselves

    def start(self) -> None:
        """Pay CUPTI's start-up with a throw-away recording of a trivial kernel: 1-1.5 s in a bare
        forked process (mostly the profiler importing torch._dynamo), 26-30 ms with the recordings
        in the worker's evaluation processes, whose host has imported it (H200, 2026-11-30)."""
        if self.started:
            return
        t0 = time.perf_counter()
        x = torch.ones(8, device="cuda")
        with self._profiler() as prof:
            x.add_(1)
            torch.cuda.synchronize()
        self.working = bool(_device_kernel_names(prof))
        self.started = True
        self.start_s = time.perf_counter() - t0

    @staticmethod
    def _profiler():
        import torch.profiler as tp
        return tp.profile(activities=[tp.ProfilerActivity.CUDA])

    @contextlib.contextmanager
    def record(self):
        """Wrap one forward and its device synchronisation (kernels still running when the
        window closes may be missed)."""
        self.start()
        t0 = time.perf_counter()
        prof = self._profiler()
        prof.__enter__()
        t1 = time.perf_counter()
        try:
            yield
        finally:
            t2 = time.perf_counter()
            prof.__exit__(None, None, None)
            names = _device_kernel_names(prof)
            self.windows.append(names)
            for name in names:
                if name not in self.seen:
                    self.seen.append(name)
            self.overhead_s += (t1 - t0) + (time.perf_counter() - t2)


def _device_kernel_names(prof) -> list[str]:
    cuda = torch.autograd.DeviceType.CUDA
    return [e.name for e in prof.events() if e.device_type == cuda]

