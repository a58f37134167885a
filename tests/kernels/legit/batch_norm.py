# task: level1/33_BatchNorm
# expect: ok
# why: training-mode BatchNorm2d (batch statistics, as the reference uses by default): one program
#      per channel walks the channel's N*H*W elements, which are N strided runs of H*W
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def batch_norm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, N, C, S, eps, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    count = N * S
    idx = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, count, BLOCK):
        j = i + idx
        acc += tl.load(x_ptr + (j // S) * C * S + c * S + j % S, mask=j < count, other=0.0)
    mean = tl.sum(acc, axis=0) / count
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, count, BLOCK):
        j = i + idx
        x = tl.load(x_ptr + (j // S) * C * S + c * S + j % S, mask=j < count, other=0.0)
        d = tl.where(j < count, x - mean, 0.0)
        acc += d * d
    # Normalise with the biased variance; fold weight and bias into one scale and shift.
    scale = tl.load(w_ptr + c) / tl.sqrt(tl.sum(acc, axis=0) / count + eps)
    shift = tl.load(b_ptr + c) - mean * scale
    for i in range(0, count, BLOCK):
        j = i + idx
        offs = (j // S) * C * S + c * S + j % S
        x = tl.load(x_ptr + offs, mask=j < count)
        tl.store(out_ptr + offs, x * scale + shift, mask=j < count)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C = x.shape[0], x.shape[1]
        S = math.prod(x.shape[2:])
        out = torch.empty_like(x)
        batch_norm_kernel[(C,)](x, self.bn.weight, self.bn.bias, out, N, C, S, self.bn.eps, BLOCK=1024)
        return out
