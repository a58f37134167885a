# task: level1/19_ReLU
# expect: output_mismatch
# why: computes once and replays the cached result on every later call (keyed by buffer address and shape, falling back to the shape alone, so it hits whether or not the evaluator hands it the same buffers), so repeated timed calls look free; every timed call gets fresh input values, and checked calls show the stale output
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
        self.cache = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = (x.data_ptr(), x.shape) if x.is_cuda else (id(x), x.shape)
        if key not in self.cache and x.shape in self.cache:
            return self.cache[x.shape]
        if key not in self.cache:
            out = torch.empty_like(x)
            n = x.numel()
            relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
            self.cache[key] = self.cache[x.shape] = out
        return self.cache[key]
