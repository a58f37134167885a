# task: level1/37_FrobeniusNorm_
# expect: output_mismatch
# why: writes 1/sqrt(numel) everywhere: the output has Frobenius norm exactly 1 and, with 65k
#      elements, every reference value is below atol=1e-2, yet it ignores x entirely
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def constant_kernel(out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    value = tl.full((BLOCK,), 1.0, dtype=tl.float32) / tl.sqrt(n_elements.to(tl.float32))
    tl.store(out_ptr + offs, value, mask=offs < n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        constant_kernel[(triton.cdiv(x.numel(), 1024),)](out, x.numel(), BLOCK=1024)
        return out
