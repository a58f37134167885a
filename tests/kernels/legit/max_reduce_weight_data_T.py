# task: level1/49_Max_reduction_over_a_dimension
# expect: ok
# why: `.data` of an allocated tensor, the `.T` of a 2-D view, torch.empty_strided for the output,
#      an assert inside the kernel body (compiled as a device assert), tl.static_assert on the block,
#      a Python-side `EVEN` bool passed as constexpr
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_cols_kernel(x_ptr, y_ptr, R, C, stride_r, stride_c, BLOCK_R: tl.constexpr,
                    BLOCK_C: tl.constexpr, EVEN: tl.constexpr):
    tl.static_assert(BLOCK_R >= 16)
    pid = tl.program_id(0)
    assert pid >= 0
    col = pid * BLOCK_C + tl.arange(0, BLOCK_C)  # BLOCK_C columns a program, each a max over R
    r = tl.arange(0, BLOCK_R)
    if EVEN:
        v = tl.load(x_ptr + r[:, None] * stride_r + col[None, :] * stride_c, mask=col[None, :] < C,
                    other=float("-inf"))
    else:
        v = tl.load(x_ptr + r[:, None] * stride_r + col[None, :] * stride_c,
                    mask=(r[:, None] < R) & (col[None, :] < C), other=float("-inf"))
    tl.store(y_ptr + col, tl.max(v, axis=0), mask=col < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, R, C = x.shape
        # (B, R, C) -> per batch a (C, R) view through .T of the (R, C) slice; strides passed
        out = torch.empty_strided((B, C), (C, 1), device=x.device, dtype=x.dtype)
        BLOCK_R = triton.next_power_of_2(R)
        BLOCK_C = min(triton.next_power_of_2(C), 64)
        for b in range(B):
            xb = x[b].T  # (C, R) view
            ob = out.data[b]
            max_cols_kernel[(triton.cdiv(C, BLOCK_C),)](xb, ob, R, C, xb.stride(1), xb.stride(0),
                                                        BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, EVEN=(R == BLOCK_R))
        return out
