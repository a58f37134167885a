# task: level1/21_Sigmoid
# expect: ok
# why: @triton.jit functions as parameter defaults (a helper's `F: tl.constexpr = exp_neg`, the
#      kernel's `ACT: tl.constexpr = logistic`) and triton.language's own `tl.sigmoid` passed
#      at launch: Triton compiles all three; the cpu evaluator's front end had left defaults as
#      InterpretedFunctions and refused them, and its argument check refused `tl.sigmoid`
#      (false-rejection probe 11)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def exp_neg(x):
    return tl.exp(-x)


@triton.jit
def logistic(x, F: tl.constexpr = exp_neg):
    return 1.0 / (1.0 + F(x))


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, ACT: tl.constexpr = logistic):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    tl.store(y_ptr + offs, ACT(x), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.contiguous().view(-1)
        y = torch.empty_like(flat)
        n = flat.numel()
        half = n // 2
        # the first half through the file's own logistic (the default), the rest through
        # triton.language's sigmoid
        sigmoid_kernel[(triton.cdiv(half, 1024),)](flat, y, half, BLOCK=1024)
        sigmoid_kernel[(triton.cdiv(n - half, 1024),)](flat[half:], y[half:], n - half, BLOCK=1024,
                                                        ACT=tl.sigmoid)
        return y.view(x.shape)
