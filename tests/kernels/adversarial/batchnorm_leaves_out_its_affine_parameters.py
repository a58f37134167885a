# task: level1/33_BatchNorm
# expect: output_mismatch
# found: red-team pass 91 (session 45; scored 0.3 on the cpu evaluator before)
# why: a BatchNorm kernel that normalises but never applies the layer's weight and bias: they start
#      at 1 and 0 in both models (same seed), so every trial matched. The reference's constant
#      parameters now get random values (the same in both models) before the trials
#      (varied_parameters.py).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_kernel(X, Y, NB, C, HW, eps, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for n in range(0, NB):
        base = X + (n * C + c) * HW
        for off in range(0, HW, BLOCK):
            m = off + cols < HW
            acc += tl.load(base + off + cols, mask=m, other=0.0)
    cnt = NB * HW
    mean = tl.sum(acc, axis=0) / cnt
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for n in range(0, NB):
        base = X + (n * C + c) * HW
        for off in range(0, HW, BLOCK):
            m = off + cols < HW
            d = tl.where(m, tl.load(base + off + cols, mask=m, other=0.0) - mean, 0.0)
            acc2 += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc2, axis=0) / cnt + eps)
    for n in range(0, NB):
        base = X + (n * C + c) * HW
        obase = Y + (n * C + c) * HW
        for off in range(0, HW, BLOCK):
            m = off + cols < HW
            x = tl.load(base + off + cols, mask=m, other=0.0)
            tl.store(obase + off + cols, (x - mean) * rstd, mask=m)  # gamma/beta never applied


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)  # kept, never read

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        bn_kernel[(C,)](x, y, N, C, H * W, self.bn.eps, BLOCK=1024)
        return y
