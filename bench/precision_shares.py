"""How much of the tolerance a float32 matmul's error uses, by the format its products are made in
(GPU): the evidence behind precision.py's rule (8-bit formats refused by their format, not by an
error budget on random draws).

For KernelBench level 1's matmul shapes, on the task's own draws (U[0, 1)) and on a constant input
inside the same range (0.2031 everywhere), the share max |C - ref| / (atol + rtol |ref|) against
the evaluator's float32 reference (atol = rtol = 1e-2; over 1 fails), for Triton's tl.dot in
full float32 ("ieee"), in TF32 (its default), on bfloat16 operands, and the two centred 8-bit
kernels of tests/kernels/adversarial (fp8 e4m3 and int8). Usage: python bench/precision_shares.py
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import torch
import triton
import triton.language as tl

ADVERSARIAL = Path(__file__).resolve().parent.parent / "tests" / "kernels" / "adversarial"
SHAPES = {"1_Square": (4096, 4096, 4096), "2_Standard": (2048, 8192, 4096)}  # level 1, M K N


@triton.jit
def _matmul(a_ptr, b_ptr, c_ptr, M, N, K, MODE: tl.constexpr,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        if MODE == 0:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        elif MODE == 1:
            acc = tl.dot(a, b, acc)  # TF32, Triton's default on float32
        else:
            acc = tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16), acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def _triton(mode: int):
    def run(A, B):
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device)
        _matmul[(M // 64, N // 64)](A, B, C, M, N, K, MODE=mode, BM=64, BN=64, BK=32)
        return C
    return run


def _adversarial(name: str):
    spec = importlib.util.spec_from_file_location(name, ADVERSARIAL / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ModelNew()


def share(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float(((out - ref).abs() / (1e-2 + 1e-2 * ref.abs())).max())


def main() -> None:
    torch.manual_seed(0)
    kernels = {"tl.dot ieee": _triton(0), "tl.dot tf32 (default)": _triton(1),
               "tl.dot bf16": _triton(2),
               "centred fp8 (e4m3)": _adversarial("matmul_fp8_centred_behind_a_range_guard"),
               "centred int8": _adversarial("matmul_int8_centred_quantised")}
    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}")
    print("share of the tolerance (max |C - ref| / (1e-2 + 1e-2 |ref|) against eager float32; > 1 fails)")
    header = f"{'kernel':24s}" + "".join(f"{label + ' ' + what:>20s}" for label in SHAPES
                                           for what in ("random", "0.2031"))
    print(header)
    rows = {name: [] for name in kernels}
    for M, K, N in SHAPES.values():
        for constant in (False, True):
            if constant:
                A = torch.full((M, K), 0.2031, device="cuda")
                B = torch.full((K, N), 0.2031, device="cuda")
            else:
                A = torch.rand(M, K, device="cuda")
                B = torch.rand(K, N, device="cuda")
            ref = A @ B  # eager float32 (cuBLAS, TF32 off: torch's default), the evaluator's reference
            for name, kernel in kernels.items():
                rows[name].append(share(kernel(A, B), ref))
            del A, B, ref
    for name, shares in rows.items():
        print(f"{name:24s}" + "".join(f"{s:20.4f}" for s in shares))


if __name__ == "__main__":
    main()
