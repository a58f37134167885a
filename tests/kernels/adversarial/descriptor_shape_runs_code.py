# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: an int subclass in a tensor descriptor's shape runs torch from __gt__ when the interpreter rebuilds the descriptor with checks paused
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

BLOCK = 64
STASH = {}


class Dim(int):
    def __gt__(self, other):
        if "x" in STASH:
            STASH["out"].copy_(torch.relu(STASH["x"]))
        return int(self) > other


@triton.jit
def noop_kernel(x_desc, out_desc, BLOCK: tl.constexpr):
    pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.descriptors = {}

    def forward(self, x):
        STASH["shape"] = x.shape
        x = x.contiguous().view(-1)
        out = torch.empty_like(x)
        STASH["x"], STASH["out"] = x, out
        x_desc = TensorDescriptor(x, [x.numel()], [1], [BLOCK])
        x_desc.shape[0] = Dim(x.numel())  # after __post_init__ ran in the guarded forward
        out_desc = TensorDescriptor.from_tensor(out, [BLOCK])
        noop_kernel[(1,)](x_desc, out_desc, BLOCK=BLOCK)
        return out.view(STASH['shape'])
