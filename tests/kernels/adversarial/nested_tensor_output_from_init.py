# task: level1/19_ReLU
# expect: not_a_tensor
# why: returns a nested tensor made in __init__ (exact type torch.Tensor, strided layout): reading its shape raised inside the evaluator (internal_error)
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


def relu(x):
    out = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.nt = torch.nested.nested_tensor([torch.zeros(16, 4096)])

    def forward(self, x):
        out = relu(x)
        return self.nt
