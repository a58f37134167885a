# task: level1/19_ReLU
# expect: format_violation
# why: the kernel reads a property of a module-level object, whose getter runs torch on the stashed input while the interpreter runs the body
import torch
import torch.nn as nn
import triton
import triton.language as tl

STASH = {}


class State:
    @property
    def scale(self):
        if "x" in STASH:
            STASH["out"].copy_(torch.relu(STASH["x"]))
        return 1.0


STATE = State()


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    s = STATE.scale


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        STASH["x"], STASH["out"] = x, out
        noop_kernel[(1,)](x, x.numel(), BLOCK=1024)
        return out
