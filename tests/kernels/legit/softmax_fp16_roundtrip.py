# task: level1/23_Softmax
# expect: ok
# why: the exponentials kept in float16 (an rtz downcast with tl.cast, then a plain .to round-trip) in a scratch buffer between two passes; libdevice-free tl.math calls
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def exp_kernel(x_ptr, e_ptr, s_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=ok, other=-float("inf"))
    e = tl.math.exp(x - tl.max(x, axis=0))
    e16 = tl.cast(e, tl.float16, fp_downcast_rounding="rtz")
    tl.store(e_ptr + row * n_cols + cols, e16, mask=ok)
    tl.store(s_ptr + row, tl.sum(e16.to(tl.float32), axis=0))


@triton.jit
def scale_kernel(e_ptr, s_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    e = tl.load(e_ptr + row * n_cols + cols, mask=ok, other=0.0).to(tl.float32)
    inv = tl.math.div_rn(1.0, tl.load(s_ptr + row))
    tl.store(out_ptr + row * n_cols + cols, (e * inv).to(tl.float16).to(tl.float32), mask=ok)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        e = torch.empty((rows, cols), device=x.device, dtype=torch.float16)
        s = torch.empty((rows,), device=x.device, dtype=torch.float32)
        out = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(cols)
        exp_kernel[(rows,)](x, e, s, cols, BLOCK=BLOCK)
        scale_kernel[(rows,)](e, s, out, cols, BLOCK=BLOCK)
        return out
