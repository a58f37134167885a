# task: level1/20_LeakyReLU
# expect: ok
# why: @triton.heuristics deciding an EVEN_N flag (no mask when the size divides), tl.multiple_of /
#      tl.max_contiguous hints, negative_slope stored on self and passed as a float argument
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"EVEN_N": lambda args: args["n_elements"] % args["BLOCK_SIZE"] == 0})
@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n_elements, negative_slope,
                      BLOCK_SIZE: tl.constexpr, EVEN_N: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)
    if EVEN_N:
        x = tl.load(x_ptr + offsets)
        y = tl.where(x >= 0, x, x * negative_slope)
        tl.store(y_ptr + offsets, y)
    else:
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.where(x >= 0, x, x * negative_slope)
        tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty(x.shape, device=x.device, dtype=x.dtype)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        leaky_relu_kernel[grid](x, y, n, self.negative_slope, BLOCK_SIZE=2048)
        return y
