"""Roofline floor for a task: the fastest any kernel could run it on a given GPU.

t_min = max(FLOPs / peak FLOP/s, compulsory bytes / DRAM bandwidth). It prices only the work the
task cannot avoid (the FLOPs torch's flop counter attributes to the reference, reading the inputs
and weights once, writing the outputs once), so it is a lower bound: a measured runtime far below
it means the timing is wrong or the kernel skipped the work. The same floor gives the roofline
reward a scale that does not depend on how slow eager PyTorch happens to be.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass

import torch
from torch.utils.flop_counter import FlopCounterMode

from .gpus import DEFAULT_NOMINAL_GPU, FALLBACK_GPU, GPU_SPECS, GpuSpec, detect_gpu, nominal_gpu  # noqa: F401

DEFAULT_REJECT_FRACTION = 0.8
def _to_meta(obj):
    return obj.to("meta") if isinstance(obj, torch.Tensor) else obj


def _meta_copy(model: torch.nn.Module) -> torch.nn.Module:
    """A copy of `model` on the meta device, made without copying any weight data.

    Pre-seeding deepcopy's memo with meta stand-ins for every parameter and buffer keeps a large
    GPU model from being duplicated in device memory just to be thrown away.
    """
    memo = {}
    for p in model.parameters():
        memo[id(p)] = torch.nn.Parameter(p.to("meta"), requires_grad=p.requires_grad)
    for b in model.buffers():
        memo[id(b)] = b.to("meta")
    return copy.deepcopy(model, memo).to("meta")


def _count(model: torch.nn.Module, inputs: list) -> int:
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(*inputs)
    return int(counter.get_total_flops())


def count_flops(model: torch.nn.Module, inputs: list) -> int:
    """FLOPs torch's flop counter attributes to one forward (matmul, conv, attention; 0 for
    elementwise ops). Counted on meta tensors, so nothing runs; a model that needs real data
    (data-dependent shapes, .item()) is counted by running a copy on clones of the inputs, so
    the caller's model, inputs and RNG state are left as they were."""
    try:
        return _count(_meta_copy(model), [_to_meta(x) for x in inputs])
    except Exception:
        pass
    cuda = [x for x in inputs if isinstance(x, torch.Tensor) and x.is_cuda]
    devices = sorted({x.device.index or 0 for x in cuda})
    with torch.random.fork_rng(devices=devices):
        clones = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        return _count(copy.deepcopy(model), clones)


def task_counts(model: torch.nn.Module, inputs: list) -> tuple[int, int, torch.dtype]:
    """(FLOPs, compulsory bytes, compute dtype) of one forward, from a single meta-device run
    where possible (nothing allocated or computed, any input size), else from a real run on
    copies of the inputs."""
    try:
        meta_inputs = [_to_meta(x) for x in inputs]
        meta_model = _meta_copy(model)
        with torch.no_grad(), FlopCounterMode(display=False) as counter:
            out = meta_model(*meta_inputs)
        flops = int(counter.get_total_flops())
    except Exception:
        flops = count_flops(model, inputs)
        with torch.no_grad():
            out = copy.deepcopy(model)(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    return flops, compulsory_bytes(inputs, model, out), compute_dtype(inputs, model)


def _tensors(obj) -> list[torch.Tensor]:
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for item in obj for t in _tensors(item)]
    if isinstance(obj, dict):
        return [t for item in obj.values() for t in _tensors(item)]
    return []


def _nbytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()


def compulsory_bytes(inputs, model: torch.nn.Module | None, outputs) -> int:
    """Bytes any kernel must move: read every tensor input and every parameter and buffer once,
    write every output once, at their dtypes."""
    state = [] if model is None else [*model.parameters(), *model.buffers()]
    return sum(_nbytes(t) for t in _tensors(list(inputs)) + state + _tensors(outputs))


def compute_dtype(inputs, model: torch.nn.Module | None = None) -> torch.dtype:
    """The floating dtype holding the most elements among the tensor inputs and parameters
    (float32 when there is none): the precision the task's arithmetic runs in."""
    params = [] if model is None else list(model.parameters())
    counts: dict[torch.dtype, int] = {}
    for t in _tensors(list(inputs)) + params:
        if t.is_floating_point():
            counts[t.dtype] = counts.get(t.dtype, 0) + t.numel()
    return max(counts, key=counts.get) if counts else torch.float32


@dataclass(frozen=True)
class Roofline:
    """The floor for one task on one GPU; t_min_ms is the larger of the two roofs' times."""

    flops: int
    bytes: int
    arithmetic_intensity: float  # FLOPs per byte
    peak_tflops: float
    bandwidth_gbs: float
    t_min_ms: float
    bound: str  # "compute" or "memory": whichever term sets t_min
    gpu: str
    fallback: bool

    def to_dict(self) -> dict:
        """JSON-safe: a non-finite intensity (FLOPs over zero bytes) becomes None."""
        data = dataclasses.asdict(self)
        if not math.isfinite(data["arithmetic_intensity"]):
            data["arithmetic_intensity"] = None
        return data


def _times_ms(flops: int, nbytes: int, peak_tflops: float, gpu: GpuSpec) -> tuple[float, float]:
    """(the FLOPs at `peak_tflops`, the bytes at the GPU's bandwidth), in ms."""
    return flops / (peak_tflops * 1e12) * 1e3, nbytes / (gpu.bandwidth_gbs * 1e9) * 1e3


def roofline(flops: int, nbytes: int, dtype: torch.dtype, gpu: GpuSpec) -> Roofline:
    peak = gpu.peak_tflops(dtype)
    t_compute, t_memory = _times_ms(flops, nbytes, peak, gpu)
    if nbytes:
        intensity = flops / nbytes
    else:
        intensity = math.inf if flops else 0.0
    return Roofline(
        flops=int(flops),
        bytes=int(nbytes),
        arithmetic_intensity=intensity,
        peak_tflops=peak,
        bandwidth_gbs=gpu.bandwidth_gbs,
        t_min_ms=max(t_compute, t_memory),
        bound="compute" if t_compute > t_memory else "memory",
        gpu=gpu.name,
        fallback=gpu.fallback,
    )


def impossible_floor_ms(flops: int, nbytes: int, gpu: GpuSpec) -> float:
    """The time no accepted kernel can beat: the compulsory bytes at full bandwidth, or the FLOPs
    at the fastest roof a kernel may compute on, whichever is longer. A float32 task's t_min
    uses the TF32 roof, but its kernels may round operands to 16 bits for tensor cores twice as
    fast (legit/matmul_fp16_tensor_cores; red-team pass 71): against t_min, such a kernel at 62.5 %
    of the float16 peak was refused as impossible."""
    return max(_times_ms(flops, nbytes, gpu.fastest_tflops(), gpu))


def roofline_frac(t_min_ms: float | None, runtime_ms: float | None) -> float | None:
    """Fraction of the roofline reached (1.0 = at the floor); None without a usable runtime."""
    if t_min_ms is None or runtime_ms is None or runtime_ms <= 0:
        return None
    return t_min_ms / runtime_ms


def is_physically_impossible(
    runtime_ms: float | None, floor_ms: float | None, reject_fraction: float = DEFAULT_REJECT_FRACTION
) -> bool:
    """True when the runtime beats the floor by more than the slack: runtime < fraction * floor
    (`impossible_floor_ms`).

    The slack (default 0.8) absorbs datasheet peaks being rounded and clocks boosting above
    them (KERNEL_ENV_ROOFLINE_REJECT, read by the server's config). A floor of 0 never rejects.
    """
    if runtime_ms is None or not floor_ms or floor_ms <= 0:
        return False
    return runtime_ms < reject_fraction * floor_ms
