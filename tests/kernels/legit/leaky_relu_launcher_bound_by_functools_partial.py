# task: level1/20_LeakyReLU
# expect: ok
# why: the launcher bound with functools.partial (`functools.partial(kernel[grid], BLOCK_SIZE=...)`,
#      then called), a grid lambda reading meta['BLOCK_SIZE']: refused as "never launched" until
#      session 43 (the static check counted only `kernel[grid](...)` written in one piece)
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_kernel(x_ptr, out_ptr, n_elements, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    out = tl.where(x >= 0, x, x * negative_slope)
    tl.store(out_ptr + offsets, out, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_flat = x.contiguous().view(-1)
        out = torch.empty_like(x_flat)
        n = x_flat.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        launch = functools.partial(leaky_relu_kernel[grid], BLOCK_SIZE=2048, num_warps=4)
        launch(x_flat, out, n, self.negative_slope)
        return out.view_as(x)
