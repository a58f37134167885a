# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: crash
# why: reads far outside the input on purpose; on a GPU this corrupts the CUDA context, which must cost only this step (on CPU the interpreter faults or reads garbage)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def wild_read_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs * 1_000_000_007, mask=mask)  # no bounds: addresses far past the end
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        wild_read_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
