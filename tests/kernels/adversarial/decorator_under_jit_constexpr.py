# task: level1/19_ReLU
# expect: format_violation
# why: @triton.jit over a decorator that returned another function: the file's own jit function passed as a constexpr ran a body no kernel rule read (review of session 11); triton.jit must be innermost
import torch
import torch.nn as nn
import triton
import triton.language as tl

SINK = []


def helper(x):
    SINK.append(str(x))
    return x


def swap(f):
    return helper


@triton.jit
@swap
def act(x):
    return x


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, ACT(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        SINK.clear()
        copy_kernel[(triton.cdiv(n, 512),)](x, out, n, ACT=act, BLOCK=512)
        vals = []
        for text in SINK:
            for tok in text.replace("[", " ").replace("]", " ").split():
                v = float(tok)
                vals.append(v if v > 0 else 0.0)
        return torch.tensor(vals[:n], dtype=x.dtype).view(x.shape)
