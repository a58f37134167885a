# task: level1/19_ReLU
# expect: ok
# why: a hand-rolled config cache: the chosen (BLOCK, num_warps) kept in a module global tuple
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CONFIG = None  # (BLOCK, num_warps), picked on the first call


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def _launch(x, out, n, block, warps):
    relu_kernel[(triton.cdiv(n, block),)](x, out, n, BLOCK=block, num_warps=warps)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        global _CONFIG
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        if _CONFIG is None:
            _launch(x, out, n, 1024, 4)  # warm-up launch before choosing
            _CONFIG = (1024, 4)
        _launch(x, out, n, *_CONFIG)
        return out
