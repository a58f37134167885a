# task: level1/51_Argmax_over_a_dimension
# expect: ok
# why: int64 output from torch.empty(..., dtype=torch.long), tl.argmax over a padded
#      next_power_of_2 block (other=-inf), strided access to the reduced dim, indices cast .to(tl.int64)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, stride_c,
                  BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # one (BLOCK_R, BLOCK_C) tile per program: a column's argmax over the reduced dim (axis 0)
    b = tl.program_id(0)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    r = tl.arange(0, BLOCK_R)
    m = (r[:, None] < R) & (c[None, :] < C)
    vals = tl.load(x_ptr + b * stride_b + r[:, None] * stride_r + c[None, :] * stride_c, mask=m,
                   other=-float("inf"))
    idx = tl.argmax(vals, axis=0)
    tl.store(out_ptr + b * C + c, idx.to(tl.int64), mask=c < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim if self.dim >= 0 else x.dim() + self.dim
        assert x.dim() == 3 and dim == 1, "kernel written for the task's (B, R, C) / dim=1"
        B, R, C = x.shape
        out = torch.empty((B, C), device=x.device, dtype=torch.long)
        BLOCK_C = min(triton.next_power_of_2(C), 64)
        argmax_kernel[(B, triton.cdiv(C, BLOCK_C))](x, out, R, C, x.stride(0), x.stride(1), x.stride(2),
                                                    BLOCK_R=triton.next_power_of_2(R), BLOCK_C=BLOCK_C)
        return out
