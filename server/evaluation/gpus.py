"""Dense datasheet peaks per GPU: a data table, the GPU found by its device name.

Torch-free, so the server can validate KERNEL_ENV_NOMINAL_GPU without importing torch.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

DEFAULT_NOMINAL_GPU = "H100 SXM"
FALLBACK_GPU = "H100 SXM"


@dataclass(frozen=True)
class GpuSpec:
    """Dense datasheet peaks of one GPU (TFLOP/s, GB/s with 1 GB = 1e9 B)."""

    name: str
    fp16_tflops: float  # tensor core, dense
    bf16_tflops: float  # tensor core, dense
    tf32_tflops: float  # tensor core, dense
    fp32_tflops: float  # CUDA cores (non-tensor)
    fp64_tflops: float  # CUDA cores (non-tensor)
    fp64_tensor_tflops: float  # DMMA tensor core; equals fp64_tflops where there is none
    bandwidth_gbs: float
    source: str
    fallback: bool = False

    def peak_tflops(self, dtype: str) -> float:
        """The roof a kernel computing in `dtype` ("float32", ...) is held to (_ROOF_FOR_DTYPE)."""
        field = _ROOF_FOR_DTYPE.get(str(dtype).replace("torch.", ""))
        if field is None:  # fp8 and other precisions we hold no figure for: the highest roof
            return self.fastest_tflops()
        return getattr(self, field)

    def fastest_tflops(self) -> float:
        """The highest tensor-core roof of the formats a kernel may compute in (16-bit: 8-bit
        and narrower formats are refused, precision.py), whatever its task's dtype."""
        return max(self.fp16_tflops, self.bf16_tflops, self.tf32_tflops)


# Which peak bounds a task of a given compute dtype. fp32 gets the TF32 tensor-core roof, not the
# CUDA-core FP32 one: tl.dot runs fp32 operands as TF32 by default and that passes the 1e-2
# tolerance, so TF32 speed is reachable and the FP32 roof would not be a lower bound. fp64 gets
# the DMMA roof for the same reason (cuBLAS DGEMM uses it).
_ROOF_FOR_DTYPE = {
    "float16": "fp16_tflops",
    "bfloat16": "bf16_tflops",
    "float32": "tf32_tflops",
    "float64": "fp64_tensor_tflops",
}

_H100 = "NVIDIA H100 Tensor Core GPU datasheet"
_H200 = "NVIDIA H200 Tensor Core GPU datasheet"
_A100 = "NVIDIA A100 Tensor Core GPU datasheet"
_L40S = "NVIDIA L40S GPU datasheet"
_L4 = "NVIDIA L4 Tensor Core GPU datasheet"

# Datasheets print tensor-core figures with 2:4 sparsity (marked *); the values here are those
# halved. The A100 datasheet prints dense and sparse side by side; its dense column is used.
# Order per row: fp16, bf16, tf32, fp32, fp64, fp64 tensor, bandwidth GB/s.
GPU_SPECS: dict[str, GpuSpec] = {
    spec.name: spec
    for spec in (
        # H100 SXM: FP16/BF16 1,979*, TF32 989*, FP32 67, FP64 34, FP64 TC 67, 3.35 TB/s.
        GpuSpec("H100 SXM", 989.5, 989.5, 494.5, 67.0, 34.0, 67.0, 3350.0, _H100),
        # H100 PCIe: FP16/BF16 1,513*, TF32 756*, FP32 51, FP64 26, FP64 TC 51, 2 TB/s.
        GpuSpec("H100 PCIe", 756.5, 756.5, 378.0, 51.0, 26.0, 51.0, 2000.0, _H100),
        # H100 NVL (per GPU): FP16/BF16 1,671*, TF32 835*, FP32 60, FP64 30, FP64 TC 60, 3.9 TB/s.
        GpuSpec("H100 NVL", 835.5, 835.5, 417.5, 60.0, 30.0, 60.0, 3900.0, _H100),
        # H200 SXM: same compute as H100 SXM (1,979* / 989* / 67 / 34 / 67), 4.8 TB/s HBM3e.
        GpuSpec("H200 SXM", 989.5, 989.5, 494.5, 67.0, 34.0, 67.0, 4800.0, _H200),
        # H200 NVL: FP16/BF16 1,671*, TF32 835*, FP32 60, FP64 30, FP64 TC 60, 4.8 TB/s.
        GpuSpec("H200 NVL", 835.5, 835.5, 417.5, 60.0, 30.0, 60.0, 4800.0, _H200),
        # A100 (all forms): FP16/BF16 312 (624*), TF32 156 (312*), FP32 19.5, FP64 9.7,
        # FP64 TC 19.5. Bandwidth: 80GB SXM 2,039; 40GB SXM 1,555; 80GB PCIe 1,935;
        # 40GB PCIe 1,555 GB/s.
        GpuSpec("A100 SXM 80GB", 312.0, 312.0, 156.0, 19.5, 9.7, 19.5, 2039.0, _A100),
        GpuSpec("A100 SXM 40GB", 312.0, 312.0, 156.0, 19.5, 9.7, 19.5, 1555.0, _A100),
        GpuSpec("A100 PCIe 80GB", 312.0, 312.0, 156.0, 19.5, 9.7, 19.5, 1935.0, _A100),
        GpuSpec("A100 PCIe 40GB", 312.0, 312.0, 156.0, 19.5, 9.7, 19.5, 1555.0, _A100),
        # L40S: FP16/BF16 362.05 (733*), TF32 183 (366*), FP32 91.6, 864 GB/s. The datasheet
        # lists no FP64; Ada runs FP64 at 1/64 of FP32 (91.6 / 64 = 1.43), no FP64 tensor core.
        GpuSpec("L40S", 362.05, 362.05, 183.0, 91.6, 1.43, 1.43, 864.0, _L40S),
        # L4: FP16/BF16 242*, TF32 120*, FP32 30.3, 300 GB/s. FP64 not listed: 30.3 / 64 = 0.47.
        GpuSpec("L4", 121.0, 121.0, 60.0, 30.3, 0.47, 0.47, 300.0, _L4),
    )
}

# torch.cuda.get_device_name() -> table key. A rule matches when all its tokens are among the
# name's tokens (upper-cased, split on space, '-' and '_'); the first match wins, so specific
# variants come before the plain chip name. Whole tokens, so "L4" does not match "L40S".
_NAME_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("H100", "PCIE"), "H100 PCIe"),
    (("H100", "NVL"), "H100 NVL"),
    (("H100",), "H100 SXM"),  # "NVIDIA H100 80GB HBM3", "NVIDIA H100 SXM5 80GB"
    (("H200", "NVL"), "H200 NVL"),
    (("H200",), "H200 SXM"),  # "NVIDIA H200"
    (("A100", "PCIE", "80GB"), "A100 PCIe 80GB"),  # "NVIDIA A100 80GB PCIe"
    (("A100", "PCIE"), "A100 PCIe 40GB"),  # "NVIDIA A100-PCIE-40GB"
    (("A100", "40GB"), "A100 SXM 40GB"),  # "NVIDIA A100-SXM4-40GB"
    (("A100",), "A100 SXM 80GB"),  # "NVIDIA A100-SXM4-80GB"
    (("L40S",), "L40S"),
    (("L4",), "L4"),
)


def _tokens(device_name: str) -> set[str]:
    return set(device_name.upper().replace("-", " ").replace("_", " ").split())


def detect_gpu(device_name: str) -> GpuSpec:
    """The table entry for a torch.cuda.get_device_name() string.

    An unknown GPU gets the H100 SXM figures, marked fallback=True and named so in reports: the
    H100 is the most common kernel-benchmarking part and the bound stays usable, but it may be
    too high (t_min too small) for a faster GPU or too low for a slower one, so callers should
    not reject submissions on a fallback spec's floor alone.
    """
    tokens = _tokens(device_name)
    for required, key in _NAME_RULES:
        if tokens.issuperset(required):
            return GPU_SPECS[key]
    return dataclasses.replace(
        GPU_SPECS[FALLBACK_GPU],
        name=f"unknown GPU {device_name!r} (using {FALLBACK_GPU} peaks)",
        fallback=True,
    )


def nominal_gpu(name: str = DEFAULT_NOMINAL_GPU) -> GpuSpec:
    """A table entry by key (case-insensitive), for evaluators with no GPU to show a roof for."""
    by_lower = {key.lower(): spec for key, spec in GPU_SPECS.items()}
    spec = by_lower.get(name.strip().lower())
    if spec is None:
        raise ValueError(f"unknown nominal GPU {name!r}; valid names: {', '.join(GPU_SPECS)}")
    return spec


