# task: level1/47_Sum_reduction_over_a_dimension
# expect: ok
# why: NDIM: tl.constexpr = len(strides) of a tuple launch argument (its length is known at compile time); false-rejection probe 10 (session 16)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_dim1_kernel(x_ptr, y_ptr, strides, R, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    NDIM: tl.constexpr = len(strides)  # a tuple argument's length is known when compiling
    tl.static_assert(NDIM == 3)
    b = tl.program_id(0)
    cb = tl.program_id(1)
    r = tl.arange(0, BLOCK_R)
    c = cb * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (r[:, None] < R) & (c[None, :] < C)
    ptrs = x_ptr + b * strides[0] + r[:, None] * strides[1] + c[None, :] * strides[NDIM - 1]
    s = tl.sum(tl.load(ptrs, mask=mask, other=0.0), axis=0)
    tl.store(y_ptr + b * C + c, s, mask=c < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        B, R, C = x.shape
        y = torch.empty(B, 1, C, dtype=x.dtype, device=x.device)
        BLOCK_C = 32
        sum_dim1_kernel[(B, triton.cdiv(C, BLOCK_C))](
            x, y, tuple(x.stride()), R, C, BLOCK_R=triton.next_power_of_2(R), BLOCK_C=BLOCK_C)
        return y
