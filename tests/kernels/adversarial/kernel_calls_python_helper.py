# task: level1/19_ReLU
# expect: format_violation
# why: the kernel calls a plain Python helper that would run torch on the stashed input (in the interpreter at launch time); kernels may call only @triton.jit functions
import torch
import torch.nn as nn
import triton
import triton.language as tl

STASH = {}


def peek(ptr):
    STASH["out"].copy_(torch.relu(STASH["x"]))
    return ptr


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    peek(x_ptr)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        STASH["x"], STASH["out"] = x, out
        relu_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
        return out
