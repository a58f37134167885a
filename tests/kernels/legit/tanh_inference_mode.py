# task: level1/22_Tanh
# expect: ok
# why: forward under @torch.inference_mode(): its outputs are inference tensors, which the
#      evaluator's spoiling of a returned output wrote outside that mode (false-rejection probe 7)
"""tanh on a 2-D grid of (rows x column-blocks) tiles, reading through strides."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_2d_kernel(x_ptr, y_ptr, n_rows, n_cols, sx0, sx1, sy0, sy1,
                   BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    m = (r[:, None] < n_rows) & (c[None, :] < n_cols)
    x = tl.load(x_ptr + r[:, None] * sx0 + c[None, :] * sx1, mask=m, other=0.0).to(tl.float32)
    # tanh(x) = sign(x) * (1 - e) / (1 + e), e = exp(-2|x|)
    e = tl.exp(-2.0 * tl.abs(x))
    t = (1.0 - e) / (1.0 + e)
    t = tl.where(x < 0, -t, t)
    tl.store(y_ptr + r[:, None] * sy0 + c[None, :] * sy1, t, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.inference_mode()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        y = x.new_empty(x2.size())
        R, C = x2.shape
        BR, BC = 4, 512
        tanh_2d_kernel[(triton.cdiv(R, BR), triton.cdiv(C, BC))](
            x2, y, R, C, x2.stride(0), x2.stride(1), y.stride(0), y.stride(1), BLOCK_R=BR, BLOCK_C=BC)
        return y.reshape(x.shape)
