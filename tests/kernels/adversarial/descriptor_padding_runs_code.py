# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: a tensor descriptor built in __init__ has a padding that is a str subclass whose __eq__ runs torch while the interpreter rebuilds the descriptor with checks paused
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

BLOCK = 64
STASH = {}


class Padding(str):
    def __eq__(self, other):
        if "x" in STASH:
            STASH["out"].copy_(torch.relu(STASH["x"]))
        return str(self) == other


@triton.jit
def noop_kernel(x_desc, out_desc, BLOCK: tl.constexpr):
    pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        # built outside forward, where no check runs; forward only swaps the tensor in
        self.x_desc = TensorDescriptor(torch.empty(BLOCK), [BLOCK], [1], [BLOCK], Padding("zero"))
        self.out_desc = TensorDescriptor.from_tensor(torch.empty(BLOCK), [BLOCK])

    def forward(self, x):
        STASH["shape"] = x.shape
        x = x.contiguous().view(-1)
        out = torch.empty_like(x)
        STASH["x"], STASH["out"] = x, out
        self.x_desc.base, self.x_desc.shape = x, [x.numel()]
        self.out_desc.base, self.out_desc.shape = out, [out.numel()]
        noop_kernel[(1,)](self.x_desc, self.out_desc, BLOCK=BLOCK)
        return out.view(STASH["shape"])
