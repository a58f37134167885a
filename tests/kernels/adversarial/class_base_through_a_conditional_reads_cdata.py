# task: level1/19_ReLU
# expect: format_violation
# says: may only be called
# found: red-team pass 37 (session 18; scored 0.3 on the cpu evaluator against the first version
#        of the class flows): a base named through a conditional expression hid the methods
#        Holder inherits, and `Holder.addr(x)` read the input tensor's private `_cdata`
# why: a class that flows as a value may not be a base (only a class named directly is)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self._cdata = 0

    def addr(self):
        return self._cdata  # with self = a tensor: its C++ TensorImpl address


class Holder(Base if True else nn.Module):
    pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        if Holder.addr(x) == 0:  # only a foreign self (the input tensor) gives a nonzero address
            return out
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
