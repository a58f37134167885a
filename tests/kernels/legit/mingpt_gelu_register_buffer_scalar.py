# task: level1/88_MinGPTNewGelu
# expect: ok
# why: constants kept in a register_buffer'd torch.tensor([...]) made in __init__ and read by the
#      kernel from memory; tanh written with exp (no libdevice), a 2-D view (rows, cols) launched
#      on a 2-D grid with program_id(1) over columns; x.view(-1, x.shape[-1]) / out.view(*x.shape)
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _tanh(x):
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(x >= 0, t, -t)


@triton.jit
def new_gelu_kernel(x_ptr, y_ptr, consts_ptr, n_rows, n_cols, stride_row,
                    BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride_row + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    k0 = tl.load(consts_ptr)
    k1 = tl.load(consts_ptr + 1)
    inner = k0 * (x + k1 * x * x * x)
    y = 0.5 * x * (1.0 + _tanh(inner))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.register_buffer("consts", torch.tensor([math.sqrt(2.0 / math.pi), 0.044715], dtype=torch.float32))

    def forward(self, x):
        x2 = x.view(-1, x.shape[-1])
        n_rows, n_cols = x2.shape
        y = torch.empty_like(x2)
        BR, BC = 8, 256
        grid = (triton.cdiv(n_rows, BR), triton.cdiv(n_cols, BC))
        consts = self.consts if self.consts.device == x.device else self.consts.to(x.device)
        new_gelu_kernel[grid](x2, y, consts, n_rows, n_cols, x2.stride(0), BLOCK_ROWS=BR, BLOCK_COLS=BC)
        return y.view(*x.shape)
