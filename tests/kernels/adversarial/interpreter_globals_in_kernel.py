# task: level1/19_ReLU
# expect: format_violation
# why: names bound only in dead code (`if False: np = 0`) pass the "defined in your file" rules; Triton's interpreter used to copy its own globals (numpy, inspect) into the module wherever a name was missing, so the kernel ran numpy on its arrays. Now the interpreter runs kernels in a namespace of their own and the names stay unbound (on a GPU the compiler finds them undefined)
import torch
import torch.nn as nn
import triton
import triton.language as tl

if False:  # never runs: the names stay unbound until Triton's interpreter copies its own globals in
    np = 0
    inspect = 0


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    ins = inspect
    lib = np
    arr = ins.getattr_static(ins.getattr_static(x, "handle"), "data")
    lib.maximum(arr, 0, out=arr)
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
