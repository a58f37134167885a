# task: level1/19_ReLU
# expect: format_violation
# why: the same dead-code import under the name `getattr`, inside a kernel: getattr(getattr(x, "handle"), "data") reached the interpreter's numpy array, clipped in place
import torch
import torch.nn as nn
import triton
import triton.language as tl

if False:  # never runs: the static check files `getattr` under the import alias, the builtin stays
    import triton.language as getattr


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    arr = getattr(getattr(x, "handle"), "data")
    arr.clip(0, None, out=arr)
    tl.store(out_ptr + offs, x, mask=mask)


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
