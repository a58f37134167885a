# task: level1/20_LeakyReLU
# expect: ok
# why: slope as torch.tensor([slope], device=x.device) made in forward and read from memory,
#      input split into halves with x.chunk(2, dim=0), each half through the kernel, the outputs
#      joined with torch.cat; numpy np.prod for the element count; default constexpr parameter
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_kernel(x_ptr, y_ptr, slope_ptr, n, BLOCK: tl.constexpr = 1024):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    s = tl.load(slope_ptr)
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(x > 0, x, x * s), mask=m)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        slope = torch.tensor([self.negative_slope], device=x.device, dtype=x.dtype)
        parts = []
        for part in x.chunk(2, dim=0):
            part = part.contiguous()
            n = int(np.prod(part.shape))
            out = torch.empty_like(part)
            leaky_kernel[(triton.cdiv(n, 1024),)](part, out, slope, n)
            parts.append(out)
        return torch.cat(parts, dim=0)
