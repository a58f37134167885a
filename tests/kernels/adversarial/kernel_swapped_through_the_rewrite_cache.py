# task: level1/19_ReLU
# expect: format_violation
# why: the interpreter runs whatever its class-level cache InterpretedFunction.rewritten_fn holds for a kernel's function: `relu_kernel.rewritten_fn[relu_kernel.fn] = host_body` swapped the checked copy kernel for a plain function that ran numpy on the values' arrays (it scored 0.3 on the cpu evaluator). Now kernels are read-only in the static check, the interpreter's machinery names are refused, and the evaluator keeps its own rewrite cache
import torch
import torch.nn as nn
import numpy
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)  # a plain copy


def host_body(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # never checked as a kernel: runs as plain Python, numpy included
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    arr = v.handle.data
    numpy.maximum(arr, 0, out=arr)
    tl.store(y_ptr + offs, v, mask=m)


relu_kernel.rewritten_fn[relu_kernel.fn] = host_body


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
