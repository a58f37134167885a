# task: level1/19_ReLU
# expect: ok
# why: a @triton.jit helper named f8E4_clamp called with a tuple constexpr: Triton quotes the mangled callee's symbol (@"...f8E4_clamp__(0, 1)c..."), which is still the source's own name, not a format
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def f8E4_clamp(x, BOUNDS: tl.constexpr):
    return tl.minimum(tl.maximum(x, BOUNDS[0]), BOUNDS[1])


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, f8E4_clamp(x, (0.0, float("inf"))), mask=mask)


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
