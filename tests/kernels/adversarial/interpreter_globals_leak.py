# task: level1/19_ReLU
# expect: format_violation
# why: uses `inspect`, which Triton's interpreter copies into the submission's globals at the first launch, to reach the guard switch
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out, 1, BLOCK=16)
        # the interpreter copied its own module globals (inspect, ast, ...) into ours
        with inspect.sys.modules["torch._C"]._DisableTorchDispatch():
            out.copy_(torch.relu(x))
        return out
