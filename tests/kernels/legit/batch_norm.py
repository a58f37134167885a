# task: level1/33_BatchNorm
# expect: ok
# why: BatchNorm2d in both modes: training normalises with batch statistics (one program per
#      channel walks its N*H*W elements, N strided runs of H*W); eval uses the running statistics
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def batch_norm_kernel(x_ptr, w_ptr, b_ptr, mean_ptr, var_ptr, out_ptr, N, C, S, eps,
                      USE_BATCH_STATS: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    count = N * S
    idx = tl.arange(0, BLOCK)
    if USE_BATCH_STATS:
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
        var = tl.sum(acc, axis=0) / count  # biased, as BatchNorm normalises with
    else:
        mean = tl.load(mean_ptr + c)
        var = tl.load(var_ptr + c)
    # Fold normalisation, weight and bias into one scale and shift per channel.
    scale = tl.load(w_ptr + c) / tl.sqrt(var + eps)
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
        # Training mode does not update the running statistics: the output never reads them.
        bn = self.bn
        x = x.contiguous()
        N, C = x.shape[0], x.shape[1]
        S = math.prod(x.shape[2:])
        out = torch.empty_like(x)
        batch_norm_kernel[(C,)](x, bn.weight, bn.bias, bn.running_mean, bn.running_var, out, N, C, S, bn.eps,
                                USE_BATCH_STATS=bn.training, BLOCK=1024)
        return out
