# task: level1/4_Matrix_vector_multiplication_
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F1 variant: the closure cell is a factory *parameter named `max`*, which the kernel rules
#      take for the allowed builtin (only module-level bindings are looked at); tl.reduce's
#      fallback calls the combine's original function, so `max(...)` is the host function, which
#      loads the row and vector with tl.load and computes the dot product with numpy.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _vals(t):
    return np.array(str(t).replace("[", " ").replace("]", " ").split(), dtype=np.float64)


def host_dot(pa, pb, acc, pa2, pb2, acc2):
    offs = tl.arange(0, 512)
    return pa2, pb2, float(np.dot(_vals(tl.load(pa2 + offs)), _vals(tl.load(pb2 + offs))))


def make(max):
    @triton.jit
    def combine(pa, pb, acc, pa2, pb2, acc2):
        return max(pa, pb, acc, pa2, pb2, acc2)

    return combine


@triton.jit
def mv_kernel(a_ptr, b_ptr, out_ptr, K, COMB: tl.constexpr):
    row = tl.program_id(0)
    i2 = tl.arange(0, 2) * 0
    z = tl.zeros([2], dtype=tl.float32)
    _, _, r = tl.reduce((a_ptr + row * K + i2, b_ptr + i2, z), 0, COMB)
    tl.store(out_ptr + row, r)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.comb = make(host_dot)

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        M, K = A.shape
        out = torch.empty((M, 1), dtype=A.dtype, device=A.device)
        mv_kernel[(M,)](A, B, out, K, self.comb)
        return out
