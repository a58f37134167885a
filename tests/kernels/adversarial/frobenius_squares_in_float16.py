# task: level1/37_FrobeniusNorm_
# expect: output_mismatch
# found: red-team pass 92 (session 45; scored 0.3 on the cpu evaluator before)
# why: a Frobenius norm squaring in float16: the norm is inf on values of a few hundred, every
#      output 0. Its scaled trial stopped at 100; one of signed values in [-1e4, 1e4] now runs.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_kernel(x_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    h = x.to(tl.float16)
    tl.store(part_ptr + pid, tl.sum((h * h).to(tl.float32), axis=0))


@triton.jit
def scale_kernel(x_ptr, part_ptr, y_ptr, n, P, BLOCK: tl.constexpr, PB: tl.constexpr):
    pid = tl.program_id(0)
    po = tl.arange(0, PB)
    tot = tl.sum(tl.load(part_ptr + po, mask=po < P, other=0.0), axis=0)
    inv = 1.0 / tl.sqrt(tot)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, x * inv, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n = x.numel()
        BLOCK = 4096
        P = triton.cdiv(n, BLOCK)
        part = torch.empty(P, device=x.device, dtype=torch.float32)
        sumsq_kernel[(P,)](x, part, n, BLOCK=BLOCK)
        y = torch.empty_like(x)
        scale_kernel[(P,)](x, part, y, n, P, BLOCK=BLOCK, PB=triton.next_power_of_2(P))
        return y
