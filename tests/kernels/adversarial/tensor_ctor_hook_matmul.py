# task: level1/1_Square_matrix_multiplication_
# expect: format_violation
# why: the same unguarded __float__ inside torch.tensor's data conversion runs torch.matmul
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


class Unguarded:
    def __init__(self, a, b, out):
        self.a, self.b, self.out = a, b, out

    def __float__(self):
        torch.matmul(self.a, self.b, out=self.out)
        return 0.0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty(A.shape[0], B.shape[1], device=A.device, dtype=A.dtype)
        copy_kernel[(1,)](A, out, 1024, BLOCK=1024)
        torch.tensor([Unguarded(A, B, out)], dtype=A.dtype)
        return out
