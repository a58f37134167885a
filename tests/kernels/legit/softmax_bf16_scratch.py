# task: level1/23_Softmax
# expect: ok
# why: the exponentials kept in a bfloat16 scratch buffer between two passes (casts to and from float32 only: no bfloat16 arithmetic, which the cpu evaluator cannot run)
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
    eb = e.to(tl.bfloat16)
    tl.store(e_ptr + row * n_cols + cols, eb, mask=ok)
    tl.store(s_ptr + row, tl.sum(eb.to(tl.float32), axis=0))


@triton.jit
def scale_kernel(e_ptr, s_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    ok = cols < n_cols
    e = tl.load(e_ptr + row * n_cols + cols, mask=ok, other=0.0).to(tl.float32)
    inv = tl.math.div_rn(1.0, tl.load(s_ptr + row))
    tl.store(out_ptr + row * n_cols + cols, e * inv, mask=ok)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        e = torch.empty((rows, cols), device=x.device, dtype=torch.bfloat16)
        s = torch.empty((rows,), device=x.device, dtype=torch.float32)
        out = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(cols)
        exp_kernel[(rows,)](x, e, s, cols, BLOCK=BLOCK)
        scale_kernel[(rows,)](e, s, out, cols, BLOCK=BLOCK)
        return out
