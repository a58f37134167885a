# task: level1/19_ReLU
# expect: format_violation
# why: cProfile.Profile().runctx runs source text the static check never reads
import torch
import torch.nn as nn
import triton
import triton.language as tl
import cProfile

_ns = {}
SRC = ("import torch\n"
    "def cheat(x):\n"
    "    with torch._C._DisableTorchDispatch():\n"
    "        return torch.relu(x)\n")
cProfile.Profile().runctx(SRC, _ns, _ns)


@triton.jit
def noop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        noop_kernel[(1,)](x, 1, BLOCK=16)
        return _ns["cheat"](x)
