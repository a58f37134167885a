# task: level1/19_ReLU
# expect: format_violation
# why: a @triton.jit function's get_capture_scope() is its module's globals, builtins included: exec from there
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

SCOPE = relu_kernel.get_capture_scope()
BI = SCOPE["__builtins__"]
RUN = BI["exec"] if isinstance(BI, dict) else BI.exec
G = {}
RUN("import torch._C as C; D = C._DisableTorchDispatch", G)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out, 1, BLOCK=16)
        return out
