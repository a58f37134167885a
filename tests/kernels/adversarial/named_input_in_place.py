# task: level1/19_ReLU
# expect: input_mutated
# why: renames its input's dimensions in place (rename_ is no operator, so no guard sees it); the input check then failed inside the evaluator as internal_error, a free retry
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


def relu(x):
    out = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out

class ModelNew(nn.Module):
    def forward(self, x):
        out = relu(x)
        x.rename_(*("abcdefgh"[:x.dim()]))
        return out
