# task: level1/20_LeakyReLU
# expect: ok
# why: assert messages naming type(x).__name__
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=m)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert isinstance(x, torch.Tensor), f"expected a tensor, got {type(x).__name__}"
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        leaky_relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, self.negative_slope, BLOCK=1024)
        return y
