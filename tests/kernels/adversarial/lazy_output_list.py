# task: level1/19_ReLU
# expect: format_violation
# why: returns a list subclass whose __iter__ computes the result with torch.relu when the evaluator reads it: outside the dispatch guard and after the timer's end event; results must be a tensor or an exact tuple/list of plain tensors (checked at run time: not_a_tensor), and defining `__iter__` is now refused statically
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(x_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n_elements)


class Lazy(list):
    def __init__(self, items, x):
        super().__init__(items)
        self.x = x

    def __iter__(self):
        out = self[0]
        out.copy_(torch.relu(self.x))
        return iter([out])


class ModelNew(nn.Module):
    def forward(self, x):
        touch_kernel[(1,)](x, x.numel(), BLOCK=16)
        return Lazy([torch.empty_like(x)], x)
