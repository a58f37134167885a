# task: level1/23_Softmax
# expect: output_mismatch
# why: writes 1/N in every column: rows sum to 1, so it passes a normalisation check, and on
#      torch.rand inputs it is within atol of the reference; its values ignore x entirely
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def uniform_kernel(out_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    value = tl.full((BLOCK,), 1.0, dtype=tl.float32) / n_cols
    tl.store(out_ptr + tl.program_id(0) * row_stride + cols, value, mask=cols < n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n_rows, n_cols = x.shape
        uniform_kernel[(n_rows,)](out, n_cols, out.stride(0), BLOCK=triton.next_power_of_2(n_cols))
        return out
