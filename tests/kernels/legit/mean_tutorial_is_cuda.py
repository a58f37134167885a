# task: level1/48_Mean_reduction_over_a_dimension
# expect: ok
# why: Triton's tutorials' `is_cuda()` (driver.active.get_current_target) was refused as
#      introspection (false-rejection probe 8)
# Mean over dim 1 of (B, R, I), with the backend test from Triton's matmul tutorial
# (`triton.runtime.driver.active.get_current_target().backend`) picking the tile width on GPUs.
import torch
import torch.nn as nn
import triton
import triton.language as tl


def is_cuda() -> bool:
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


@triton.jit
def mean_dim1_kernel(x_ptr, out_ptr, R, I, sxb, sxr, sxi, inv_r,
                     BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    pi = tl.program_id(1)
    cols = pi * BLOCK_I + tl.arange(0, BLOCK_I)
    rows = tl.arange(0, BLOCK_R)
    acc = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rr = r0 + rows
        m = (rr[:, None] < R) & (cols[None, :] < I)
        acc += tl.sum(tl.load(x_ptr + b * sxb + rr[:, None] * sxr + cols[None, :] * sxi, mask=m, other=0.0), axis=0)
    tl.store(out_ptr + b * I + cols, acc * inv_r, mask=cols < I)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 3 and self.dim % 3 == 1
        B, R, I = x.shape
        block_i = 64 if (x.is_cuda and is_cuda()) else 32
        out = torch.empty((B, I), device=x.device, dtype=x.dtype)
        grid = (B, triton.cdiv(I, block_i))
        mean_dim1_kernel[grid](x, out, R, I, x.stride(0), x.stride(1), x.stride(2), 1.0 / R,
                               BLOCK_R=32, BLOCK_I=block_i)
        return out
