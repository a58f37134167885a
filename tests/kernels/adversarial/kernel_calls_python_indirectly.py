# task: level1/19_ReLU
# expect: format_violation
# why: calls a Python helper through a dict: a kernel body may read only Triton, jit functions and constants (in the interpreter the helper would run at launch time; a GPU compiler refuses the non-constexpr global)
import torch
import torch.nn as nn
import triton
import triton.language as tl

STASH = {}
HELPERS = {}


def peek(ptr):
    STASH["out"].copy_(torch.relu(STASH["x"]))
    return ptr


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    HELPERS["peek"](x_ptr)


HELPERS["peek"] = peek


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        STASH["x"], STASH["out"] = x, out
        relu_kernel[(1,)](x, out, x.numel(), BLOCK=1024)
        return out
