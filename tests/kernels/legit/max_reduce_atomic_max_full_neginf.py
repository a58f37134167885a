# task: level1/49_Max_reduction_over_a_dimension
# expect: ok
# why: split reduction with tl.atomic_max into a buffer made by torch.full(..., float("-inf"));
#      program_id(1) chunks the reduced dim; atomics with sem="relaxed", scope="gpu"
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_partial_kernel(x_ptr, out_ptr, R, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_bc = tl.program_id(0)
    pid_r = tl.program_id(1)
    ncb = tl.cdiv(C, BLOCK_C)
    b = pid_bc // ncb
    c = (pid_bc % ncb) * BLOCK_C + tl.arange(0, BLOCK_C)
    r = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    mask = (r[:, None] < R) & (c[None, :] < C)
    v = tl.load(x_ptr + (b * R + r[:, None]) * C + c[None, :], mask=mask, other=float("-inf"))
    part = tl.max(v, axis=0)
    tl.atomic_max(out_ptr + b * C + c, part, mask=c < C, sem="relaxed", scope="gpu")


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.full((B, C), float("-inf"), device=x.device, dtype=x.dtype)
        BR, BC = 16, 64
        max_partial_kernel[(B * triton.cdiv(C, BC), triton.cdiv(R, BR))](x, out, R, C, BLOCK_R=BR, BLOCK_C=BC)
        return out
