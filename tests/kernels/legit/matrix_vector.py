# task: level1/4_Matrix_vector_multiplication_
# expect: ok
# why: mat-vec is memory bound, so no tl.dot: each program reduces BLOCK_M rows of A against B
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matvec_kernel(a_ptr, b_ptr, c_ptr, M, K, stride_am, stride_ak, stride_bk,
                  BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_K), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        kk = k + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk * stride_bk, mask=kk < K, other=0.0)
        acc += a * b[None, :]
    tl.store(c_ptr + rm, tl.sum(acc, axis=1), mask=rm < M)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        C = torch.empty((M, 1), device=A.device, dtype=A.dtype)
        BM, BK = 16, 256
        matvec_kernel[(triton.cdiv(M, BM),)](A, B, C, M, K, A.stride(0), A.stride(1), B.stride(0),
                                              BLOCK_M=BM, BLOCK_K=BK)
        return C
