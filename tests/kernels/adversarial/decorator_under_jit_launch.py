# task: level1/19_ReLU
# expect: format_violation
# why: as decorator_under_jit_constexpr, launching the swapped kernel directly
import torch
import torch.nn as nn
import triton
import triton.language as tl

SINK = []


def body(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    SINK.append(str(x))
    tl.store(out_ptr + offs, x, mask=offs < n)


def swap(f):
    return body


@triton.jit
@swap
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        SINK.clear()
        copy_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
        vals = []
        for text in SINK:
            for tok in text.replace("[", " ").replace("]", " ").split():
                v = float(tok)
                vals.append(v if v > 0 else 0.0)
        return torch.tensor(vals[:n], dtype=x.dtype).view(x.shape)
