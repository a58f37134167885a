# task: level1/4_Matrix_vector_multiplication_
# expect: format_violation
# found: red-team pass 31 on the cpu evaluator (it scored 0.3 before the fix)
# why: F2 without numpy at all: `fmt = "{}".format` read into a local (the f-string and
#      method-call rules look only at f-strings and `obj.meth(...)` call nodes) gives each
#      block's text; the kernel body parses it with float() and computes the dot product in
#      Python with math.fsum (read into a local: `math.fsum(...)` as a call is refused); one scalar store per row. No Triton arithmetic on the data.
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mv_kernel(a_ptr, b_ptr, out_ptr, K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, K)
    fmt = "{}".format
    ta = fmt(tl.load(a_ptr + row * K + offs))
    tb = fmt(tl.load(b_ptr + offs))
    ra = ta.replace
    rb = tb.replace
    ta = ra("[", " ")
    tb = rb("[", " ")
    ra = ta.replace
    rb = tb.replace
    av = [float(p) for p in ra("]", " ").split()]
    bv = [float(p) for p in rb("]", " ").split()]
    fsum = math.fsum
    s = fsum([p * q for p, q in zip(av, bv)])
    tl.store(out_ptr + row, s)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A = A.contiguous()
        B = B.contiguous()
        M, K = A.shape
        out = torch.empty((M, 1), dtype=A.dtype, device=A.device)
        mv_kernel[(M,)](A, B, out, K=K)
        return out
