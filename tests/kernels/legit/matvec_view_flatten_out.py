# task: level1/4_Matrix_vector_multiplication_
# expect: ok
# why: B.view(-1) / B.flatten() of the (K, 1) vector, one program per block of rows, K loop,
#      result allocated 1-D and returned as out.view(M, 1)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matvec_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_am,
                  BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * stride_am + ks[None, :],
                    mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        v = tl.load(x_ptr + ks, mask=ks < K, other=0.0)
        acc += tl.sum(a * v[None, :], axis=1)
    tl.store(y_ptr + rows, acc, mask=rows < M)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        vec = B.flatten() if B.is_contiguous() else B.contiguous().view(-1)
        M, K = A.size(0), A.size(1)
        y = torch.empty(M, device=A.device, dtype=A.dtype)
        BLOCK_M = 16
        matvec_kernel[(triton.cdiv(M, BLOCK_M),)](A, vec, y, M, K, A.stride(0), BLOCK_M=BLOCK_M, BLOCK_K=128)
        return y.view(M, 1)
