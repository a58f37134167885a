# task: level1/19_ReLU
# expect: rejected
# why: holds all the memory the evaluation process may have (allocating until refused, in __init__), so the evaluator's own buffers fail after its forward: that was internal_error, a free retry; where memory runs out varies, never the evaluator's fault (tests/test_pipeline_kernels.py)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.out = torch.empty(16, 4096)
        self.hog = []
        size = 1 << 32
        while size >= 4096:
            try:
                self.hog.append(torch.empty(size, dtype=torch.uint8))
            except RuntimeError:
                size //= 2

    def forward(self, x):
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, self.out, n, BLOCK=1024)
        return self.out
