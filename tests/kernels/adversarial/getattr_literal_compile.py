# task: level1/19_ReLU
# expect: format_violation
# why: reaches torch.compile through getattr with a literal name, past the dotted-name rules
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fast = getattr(torch, "compile")(torch.relu)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.numel() < 0:
            relu_kernel[(1,)](x, x, 0, BLOCK=128)
        return self.fast(x)
