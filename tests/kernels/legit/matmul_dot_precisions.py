# task: level1/2_Standard_matrix_multiplication_
# expect: ok
# why: tl.dot with each float32 input precision Triton offers on sm_90 (ieee, tf32, tf32x3; bf16x3 compiles for sm_90 but Triton's interpreter refuses it) and out_dtype=float32 chosen by a constexpr (per shape: a precision that changed per call would make two runs on one input disagree, which the GPU rightly refuses); 16x8-style shapes in names
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              PRECISION: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=tl.float32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A, B = A.contiguous(), B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=torch.float32)
        # a precision per shape, not per call: the same input always gets the same answer
        precision = ("ieee", "tf32", "tf32x3")[(M + N + K) % 3]
        BM, BN, BK = 32, 16, 32
        mm_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](A, B, C, M, N, K, BM=BM, BN=BN, BK=BK,
                                                             PRECISION=precision)
        return C
