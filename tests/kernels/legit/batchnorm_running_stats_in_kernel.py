# task: level1/33_BatchNorm
# expect: ok
# why: training-mode BatchNorm2d as nn.BatchNorm2d does it: per-channel batch mean/var in one
#      kernel which also updates the module's running_mean/running_var buffers in place
#      (momentum, unbiased variance), then a normalize kernel reading weight/bias; x.shape unpack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_stats_kernel(x_ptr, mean_ptr, rstd_ptr, rmean_ptr, rvar_ptr,
                    N, C, HW, eps, momentum, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    count = N * HW
    offs = tl.arange(0, BLOCK)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, count, BLOCK):
        idx = start + offs
        m = idx < count
        n = idx // HW
        p = idx % HW
        s += tl.load(x_ptr + (n * C + c) * HW + p, mask=m, other=0.0)
    mean = tl.sum(s, axis=0) / count
    sq = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, count, BLOCK):
        idx = start + offs
        m = idx < count
        n = idx // HW
        p = idx % HW
        v = tl.load(x_ptr + (n * C + c) * HW + p, mask=m, other=0.0)
        d = tl.where(m, v - mean, 0.0)
        sq += d * d
    var = tl.sum(sq, axis=0) / count
    tl.store(mean_ptr + c, mean)
    tl.store(rstd_ptr + c, 1.0 / tl.sqrt(var + eps))
    rm = tl.load(rmean_ptr + c)
    rv = tl.load(rvar_ptr + c)
    tl.store(rmean_ptr + c, (1.0 - momentum) * rm + momentum * mean)
    tl.store(rvar_ptr + c, (1.0 - momentum) * rv + momentum * var * count / (count - 1))


@triton.jit
def bn_apply_kernel(x_ptr, y_ptr, mean_ptr, rstd_ptr, w_ptr, b_ptr, C, HW, BLOCK: tl.constexpr):
    nc = tl.program_id(0)
    c = nc % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    x = tl.load(x_ptr + nc * HW + offs, mask=m)
    scale = tl.load(rstd_ptr + c) * tl.load(w_ptr + c)
    shift = tl.load(b_ptr + c) - tl.load(mean_ptr + c) * scale
    tl.store(y_ptr + nc * HW + offs, x * scale + shift, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super(ModelNew, self).__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        HW = H * W
        mean = torch.empty(C, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        bn_stats_kernel[(C,)](x, mean, rstd, self.bn.running_mean, self.bn.running_var,
                              N, C, HW, self.bn.eps, self.bn.momentum, BLOCK=1024)
        y = torch.empty_like(x)
        BLOCK = 256
        bn_apply_kernel[(N * C, triton.cdiv(HW, BLOCK))](x, y, mean, rstd, self.bn.weight, self.bn.bias,
                                                        C, HW, BLOCK=BLOCK)
        return y
