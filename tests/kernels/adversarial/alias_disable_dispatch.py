# task: level1/19_ReLU
# expect: format_violation
# why: binds torch to a plain name to reach torch._C._DisableTorchDispatch past the name rules
# Exploit: a plain assignment `t = torch` is not an import alias, so the static name rules
# (torch._C, private names, ...) never see `t._C._DisableTorchDispatch`; inside it the
# dispatch guard's mode is skipped and torch computes the answer.
import torch
import torch.nn as nn
import triton
import triton.language as tl

t = torch


@triton.jit
def nothing_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        nothing_kernel[(1,)](out, 1, BLOCK=16)
        with t._C._DisableTorchDispatch():
            out.copy_(torch.relu(x))
        return out
