# task: level1/19_ReLU
# expect: ok
# why: einops' layout functions (KernelBench's Mamba2 references import einops) around a Triton
#      kernel: rearrange, repeat, pack and unpack are views and copies under the dispatch guard
import torch
import torch.nn as nn
import triton
import triton.language as tl
import einops
from einops import pack, rearrange, repeat, unpack


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape
        wide = repeat(x, "b d -> b r d", r=1)
        flat, shapes = pack([rearrange(wide, "b r d -> (b r) d")], "b *")
        (x,) = unpack(flat, shapes, "b *")
        halves = einops.rearrange(x, "b (h d) -> b h d", h=2).contiguous()
        out = torch.empty_like(halves)
        n = halves.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](halves, out, n, BLOCK=1024)
        return rearrange(out, "b h d -> b (h d)", b=rows)
