# task: level1/47_Sum_reduction_over_a_dimension
# expect: ok
# why: split reduction: a 2D grid (lambda meta) where program_id(1) picks a chunk of the reduced
#      dim, partial sums tl.atomic_add'ed into a torch.zeros buffer; @triton.autotune with
#      key=[...] and reset_to_zero=["out_ptr"]; output keepdim via unsqueeze
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_R": 16, "BLOCK_C": 64}, num_warps=4),
        triton.Config({"BLOCK_R": 32, "BLOCK_C": 32}, num_warps=4),
    ],
    key=["R", "C"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def sum_dim1_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r, stride_c,
                    BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_bc = tl.program_id(0)
    pid_r = tl.program_id(1)
    n_cblocks = tl.cdiv(C, BLOCK_C)
    b = pid_bc // n_cblocks
    cb = pid_bc % n_cblocks
    r = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    c = cb * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (r[:, None] < R) & (c[None, :] < C)
    ptrs = x_ptr + b * stride_b + r[:, None] * stride_r + c[None, :] * stride_c
    vals = tl.load(ptrs, mask=mask, other=0.0)
    partial = tl.sum(vals, axis=0)
    tl.atomic_add(out_ptr + b * C + c, partial, mask=c < C)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        B, R, C = x.shape
        out = torch.zeros((B, C), device=x.device, dtype=torch.float32)
        grid = lambda meta: (B * triton.cdiv(C, meta["BLOCK_C"]), triton.cdiv(R, meta["BLOCK_R"]))
        sum_dim1_kernel[grid](x, out, R, C, x.stride(0), x.stride(1), x.stride(2))
        return out.unsqueeze(1)
