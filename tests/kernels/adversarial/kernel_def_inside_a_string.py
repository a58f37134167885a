# task: level1/19_ReLU
# expect: compile_error
# why: Triton's interpreter compiled a kernel from the last source line starting with `def `, here inside a string: it ran a body (numpy on the interpreter arrays) that the static check never read. Now it compiles the function's own def (the identity copy, which is wrong); and since session 17 Triton's front end refuses the kernel first on the cpu evaluator as the compiler does on a GPU (a string is no Triton value)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)
    note = """
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    import numpy as np
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    x.handle.data = np.maximum(x.handle.data, 0)
    tl.store(out_ptr + offs, x, mask=mask)
    tail = '''
"""
    end = "'''#"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
