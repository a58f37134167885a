# task: level1/33_BatchNorm
# expect: format_violation
# why: reaches torch.nn.modules.batchnorm._BatchNorm through the public `mro()` and replaces its
#      forward (inherited by BatchNorm2d) with Identity's: the reference then returns x, as this
#      copy kernel does (`mro` is refused statically; base_class_patch_batchnorm takes another road)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, o_ptr, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(o_ptr + i, tl.load(x_ptr + i, mask=i < n), mask=i < n)


class ModelNew(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        base = nn.BatchNorm2d.mro()[1]
        base.forward = nn.Identity.forward

    def forward(self, x):
        o = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, o, x.numel(), B=1024)
        return o
