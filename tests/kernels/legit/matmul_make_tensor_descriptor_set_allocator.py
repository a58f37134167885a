# task: level1/1_Square_matrix_multiplication_
# expect: ok
# why: device-side tensor descriptors (tl.make_tensor_descriptor in the kernel, TMA on Hopper),
#      which need a global-memory scratch allocator: triton.set_allocator(fn) with a
#      torch.empty-based fn on "cuda", as in Triton's own docs, set in forward; B read through
#      its own descriptor. (Triton calls the allocator in a GPU launch, in forward, under the
#      guard; its interpreter never calls it, so the cpu evaluator runs the kernel as it is)
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


def _scratch(size: int, alignment: int, stream: Optional[int]):
    # TMA descriptors made in the kernel live in global memory Triton asks the host for
    return torch.empty(size, device="cuda", dtype=torch.int8)


@triton.jit
def tma_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = a_desc.load([off_m, k])
        b = b_desc.load([k, off_n])
        acc = tl.dot(a, b, acc)
    c_desc.store([off_m, off_n], acc)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A, B = A.contiguous(), B.contiguous()
        M, K = A.shape
        N = B.shape[1]
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        triton.set_allocator(_scratch)
        BM, BN, BK = 64, 64, 32
        tma_matmul_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](A, B, C, M, N, K, BM=BM, BN=BN, BK=BK)
        return C
