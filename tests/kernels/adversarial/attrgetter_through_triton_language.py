# task: level1/19_ReLU
# expect: format_violation
# why: `operator` is reachable as an attribute of triton.language's modules (`tl.core.typing.operator`); its attrgetter("handle.data") reads the interpreter's numpy array with no `.handle`/`.data` in the source, and numpy computes the ReLU inside the kernel
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    array_of = tl.core.typing.operator.attrgetter("handle.data")
    array = array_of(x)
    array.clip(0, None, out=array)
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
