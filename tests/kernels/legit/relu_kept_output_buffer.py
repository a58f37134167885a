# task: level1/19_ReLU
# expect: ok
# why: one output buffer kept by the model and returned by every call (allocated again only
#      when the input's shape or device changes): the determinism run must compare two calls'
#      results, not the buffer with itself, and still accept it
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = torch.empty(0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        if self.out.shape != x.shape or self.out.device != x.device:
            self.out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, self.out, n, BLOCK=1024)
        return self.out
