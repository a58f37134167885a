# task: level1/19_ReLU
# expect: ok
# why: host-side tensor descriptors (triton.tools.tensor_descriptor) are Triton's own launch arguments
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

BLOCK = 64


@triton.jit
def relu_kernel(x_desc, out_desc, BLOCK: tl.constexpr):
    offset = tl.program_id(0) * BLOCK
    x = x_desc.load([offset])
    out_desc.store([offset], tl.maximum(x, 0.0))


class ModelNew(nn.Module):
    def forward(self, x):
        flat = x.contiguous().view(-1)
        out = torch.empty_like(flat)
        x_desc = TensorDescriptor.from_tensor(flat, [BLOCK])
        out_desc = TensorDescriptor.from_tensor(out, [BLOCK])
        relu_kernel[(triton.cdiv(flat.numel(), BLOCK),)](x_desc, out_desc, BLOCK=BLOCK)
        return out.view_as(x)
