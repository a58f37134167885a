# task: level1/1_Square_matrix_multiplication_
# expect: format_violation
# why: inside the @triton.jit body, getattr(v, "handle") and getattr(h, "data") reach the interpreter's numpy arrays (the body rule looks only for the `.handle`/`.data` attribute spellings); the matmul is then done by numpy's ndarray.dot method, a "method of a local value"; only possible in the interpreter (the cpu evaluator)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    c = tl.zeros([N, N], dtype=tl.float32)
    av = getattr(getattr(a, "handle"), "data")
    bv = getattr(getattr(b, "handle"), "data")
    cv = getattr(getattr(c, "handle"), "data")
    av.dot(bv, out=cv)
    tl.store(c_ptr + r[:, None] * N + r[None, :], c)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N = A.shape[0]
        C = torch.empty_like(A)
        mm_kernel[(1,)](A.contiguous(), B.contiguous(), C, N=N)
        return C
