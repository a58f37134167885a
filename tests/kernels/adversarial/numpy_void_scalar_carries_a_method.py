# task: level1/19_ReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: a bound method smuggled into the kernel inside a numpy structured scalar (np.void with an
#      object field passed the launch-argument check as a "plain numpy scalar"), then called in
#      the kernel body as a local (`f = V[0]; f(x)`): in the interpreter it gets the block, whose
#      text is its values, and host Python computes ReLU (red-team pass 30). Only numeric and bool
#      numpy scalars may be kernel arguments now.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, V, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    f = V[0]
    f(x)
    tl.store(out_ptr + offs, x, mask=mask)


class Collector:
    def __init__(self):
        self.texts = []

    def take(self, t):
        self.texts.append(str(t))
        return 0


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.col = Collector()
        holder = np.empty(1, dtype=[("f", "O")])
        holder[0] = (self.col.take,)
        self.v = holder[0]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 512
        self.col.texts.clear()
        copy_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, self.v, BLOCK=BLOCK)
        vals = []
        for s in self.col.texts:
            vals.extend(max(float(tok), 0.0) for tok in s.replace("[", " ").replace("]", " ").split())
        return torch.tensor(vals[:n], dtype=x.dtype).view(x.shape)
