# task: level1/37_FrobeniusNorm_
# expect: ok
# why: a scratch tensor kept on self.buffer, a name other objects' attributes refuse (false-rejection probe 3)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_atomic_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(acc_ptr, tl.sum(x * x, axis=0))


@triton.jit
def normalize_kernel(x_ptr, acc_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    norm = tl.sqrt(tl.load(acc_ptr))
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, x / norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.buffer = None  # scratch accumulator, allocated lazily on the input's device

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        if self.buffer is None or self.buffer.device != x.device:
            self.buffer = torch.empty(1, device=x.device, dtype=torch.float32)
        self.buffer.zero_()
        n = x.numel()
        BLOCK = 4096
        grid = (triton.cdiv(n, BLOCK),)
        sumsq_atomic_kernel[grid](x, self.buffer, n, BLOCK=BLOCK)
        y = torch.empty_like(x)
        normalize_kernel[grid](x, self.buffer, y, n, BLOCK=BLOCK)
        return y
