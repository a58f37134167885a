# task: level1/19_ReLU
# expect: format_violation
# why: a tensor subclass made with type(name, bases, dict) and as_subclass: its __torch_dispatch__ would run torch after the guard's mode lets an allowed clone through
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def td(cls, func, types, args=(), kwargs=None):
    return torch.relu(args[0].inner)


Sneaky = type("Sneaky", (torch.Tensor,), {"__torch_" + "dispatch__": classmethod(td)})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        s = x.as_subclass(Sneaky)
        s.inner = x
        y = s.clone()
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](y, out, x.numel(), BLOCK=1024)
        return out
