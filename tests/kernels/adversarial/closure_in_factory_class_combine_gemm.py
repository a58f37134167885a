# task: level1/2_Standard_matrix_multiplication_
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F1 variant that a "no jit def nested in a function" rule might miss: the combine is a
#      @staticmethod @triton.jit method of a class defined *inside* a factory; class-body
#      functions close over the enclosing function's names, so `helper` is the host function.
#      tl.reduce's fallback runs it with pointer scalars during the launch; it loads A's row
#      block and B with tl.load and numpy's matmul computes C, stored with tl.store.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl

M, K, N = 64, 96, 80


@triton.jit
def helper(pa, pb, pc, pa2, pb2, pc2):
    return pa2, pb2, pc2


class Box:
    def __init__(self, arr):
        self.data = arr
        self.dtype = tl.float32


def _vals(t):
    return np.array(str(t).replace("[", " ").replace("]", " ").split(), dtype=np.float32)


def host_row(pa, pb, pc, pa2, pb2, pc2):
    ka = tl.arange(0, 32)
    a = np.concatenate([_vals(tl.load(pa2 + c * 32 + ka)) for c in range(K // 32)])
    kb = tl.arange(0, 8)[:, None] * N + tl.arange(0, 16)[None, :]
    b = np.zeros((K, N), dtype=np.float32)
    for r in range(K // 8):
        for c in range(N // 16):
            b[r * 8:(r + 1) * 8, c * 16:(c + 1) * 16] = _vals(tl.load(pb2 + r * 8 * N + c * 16 + kb)).reshape(8, 16)
    row = (a @ b).astype(np.float32)
    for c in range(N // 16):
        tl.store(pc2 + c * 16 + tl.arange(0, 16),
                 tl.core.tensor(Box(row[c * 16:(c + 1) * 16].copy()), tl.block_type(tl.float32, [16])))
    return pa2, pb2, pc2


def make(helper):
    class Holder:
        @staticmethod
        @triton.jit
        def combine(pa, pb, pc, pa2, pb2, pc2):
            return helper(pa, pb, pc, pa2, pb2, pc2)

    return Holder.combine


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, KK, NN, COMB: tl.constexpr):
    row = tl.program_id(0)
    i2 = tl.arange(0, 2) * 0
    tl.reduce((a_ptr + row * KK + i2, b_ptr + i2, c_ptr + row * NN + i2), 0, COMB)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.comb = make(host_row)

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        C = torch.empty((A.shape[0], B.shape[1]), dtype=A.dtype, device=A.device)
        mm_kernel[(A.shape[0],)](A, B, C, A.shape[1], B.shape[1], self.comb)
        return C
