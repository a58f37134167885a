# task: level2/1_Conv2D_ReLU_BiasAdd
# expect: ok
# why: bias (C,1,1) broadcast with .expand(N, C, OH, OW) and passed with its zero strides, einops
#      rearrange for a weight layout view, a (pixels x all channels) tile per program, *eb.stride() unpacked into
#      the launch; reads nn.Conv2d weight/bias
import torch
import torch.nn as nn
import triton
import triton.language as tl
from einops import rearrange


@triton.jit
def conv_relu_add_kernel(x_ptr, w_ptr, cb_ptr, eb_ptr, y_ptr,
                         C_in, H, W, C_out, OH, OW,
                         s_ebn, s_ebc, s_ebh, s_ebw,
                         KS: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = p < OH * OW
    oh = p // OW
    ow = p % OW
    co = tl.arange(0, BLOCK_C)
    cm = co < C_out
    acc = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
    for ci in range(C_in):
        for kh in range(KS):
            for kw in range(KS):
                xv = tl.load(x_ptr + ((n * C_in + ci) * H + oh + kh) * W + ow + kw, mask=pm, other=0.0)
                wv = tl.load(w_ptr + ((ci * KS + kh) * KS + kw) * C_out + co, mask=cm, other=0.0)
                acc += xv[:, None] * wv[None, :]
    acc = tl.maximum(acc + tl.load(cb_ptr + co, mask=cm, other=0.0)[None, :], 0.0)
    mask = pm[:, None] & cm[None, :]
    eb = tl.load(eb_ptr + n * s_ebn + co[None, :] * s_ebc + oh[:, None] * s_ebh + ow[:, None] * s_ebw,
                 mask=mask, other=0.0)
    tl.store(y_ptr + ((n * C_out + co[None, :]) * OH + oh[:, None]) * OW + ow[:, None], acc + eb, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = x.contiguous()
        N, C_in, H, W = x.shape
        C_out = self.conv.out_channels
        KS = self.conv.kernel_size[0]
        OH, OW = H - KS + 1, W - KS + 1
        w = rearrange(self.conv.weight, "co ci kh kw -> ci kh kw co").contiguous()
        eb = self.bias.unsqueeze(0).expand(N, C_out, OH, OW)
        y = torch.empty((N, C_out, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_P = 64
        conv_relu_add_kernel[(N, triton.cdiv(OH * OW, BLOCK_P))](x, w, self.conv.bias, eb, y, C_in, H, W, C_out, OH, OW,
                                                                *eb.stride(), KS=KS, BLOCK_P=BLOCK_P,
                                                                BLOCK_C=triton.next_power_of_2(C_out))
        return y
