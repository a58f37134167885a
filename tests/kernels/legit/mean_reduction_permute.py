# task: level1/48_Mean_reduction_over_a_dimension
# expect: ok
# why: layout ops around a row kernel: move the reduce dim last (permute + contiguous copy), reduce rows, view back
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, out_ptr, n_rows, R, BLOCK_ROWS: tl.constexpr, BLOCK: tl.constexpr):
    # Rows are short, so each program takes BLOCK_ROWS of them as one 2D tile.
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK_ROWS, BLOCK), dtype=tl.float32)
    for c in range(0, R, BLOCK):
        mask = (rows[:, None] < n_rows) & ((c + cols)[None, :] < R)
        acc += tl.load(x_ptr + rows[:, None] * R + (c + cols)[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1) / R, mask=rows < n_rows)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim % x.dim()
        order = [d for d in range(x.dim()) if d != dim] + [dim]
        rows = x.permute(*order).contiguous()
        kept_shape = rows.shape[:-1]
        R = rows.shape[-1]
        rows = rows.reshape(-1, R)
        n_rows = rows.shape[0]
        out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
        BLOCK_ROWS, BLOCK = 16, triton.next_power_of_2(min(R, 256))
        row_mean_kernel[(triton.cdiv(n_rows, BLOCK_ROWS),)](rows, out, n_rows, R, BLOCK_ROWS=BLOCK_ROWS, BLOCK=BLOCK)
        return out.view(kept_shape)
