# task: level1/19_ReLU
# expect: runtime_error
# why: raises SyntaxError with a non-str text: formatting it raised, the process died (crash)
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
    def forward(self, x):
        out = relu(x)
        raise SyntaxError("bad", ("f.py", 1, 1, 5))
