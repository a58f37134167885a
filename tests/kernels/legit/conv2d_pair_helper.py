# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: ok
# why: `_pair` from torch.nn.modules.utils (custom convolutions' int-or-tuple helper) was refused
#      as a private module part (false-rejection probe 8)
"""Direct 2D convolution in Triton, written like a custom nn.Conv2d replacement.

Parameters are created and initialised exactly like nn.Conv2d (kaiming_uniform_ with a=sqrt(5)),
and the usual `_pair` helper from torch.nn.modules.utils normalises the int-or-tuple arguments.
"""
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.nn.modules.utils import _pair


@triton.jit
def conv2d_fwd_kernel(x_ptr, w_ptr, y_ptr,
                      N, C, H, W, OC, OH, OW,
                      sxn, sxc, sxh, sxw,
                      swo, swc, swh, sww,
                      syn, syc, syh, syw,
                      stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                      KH: tl.constexpr, KW: tl.constexpr,
                      BLOCK_P: tl.constexpr, BLOCK_OC: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_oc = tl.program_id(1)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_oc = pid_oc * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p_mask = offs_p < N * OH * OW
    oc_mask = offs_oc < OC
    n = offs_p // (OH * OW)
    rem = offs_p % (OH * OW)
    oh = rem // OW
    ow = rem % OW
    acc = tl.zeros((BLOCK_P, BLOCK_OC), dtype=tl.float32)
    for c in range(0, C):
        for kh in tl.static_range(KH):
            ih = oh * stride_h - pad_h + kh * dil_h
            for kw in tl.static_range(KW):
                iw = ow * stride_w - pad_w + kw * dil_w
                valid = p_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
                xv = tl.load(x_ptr + n * sxn + c * sxc + ih * sxh + iw * sxw, mask=valid, other=0.0)
                wv = tl.load(w_ptr + offs_oc * swo + c * swc + kh * swh + kw * sww, mask=oc_mask, other=0.0)
                acc += xv[:, None] * wv[None, :]
    y_off = n[:, None] * syn + offs_oc[None, :] * syc + oh[:, None] * syh + ow[:, None] * syw
    tl.store(y_ptr + y_off, acc, mask=p_mask[:, None] & oc_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        assert groups == 1, "this kernel handles groups=1"
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)
        self.padding = _pair(padding)
        self.dilation = _pair(dilation)
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, *self.kernel_size))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_channels))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_channels * self.kernel_size[0] * self.kernel_size[1]
            bound = 1 / math.sqrt(fan_in)
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.bias is None
        N, C, H, W = x.shape
        KH, KW = self.kernel_size
        sh, sw = self.stride
        ph, pw = self.padding
        dh, dw = self.dilation
        OH = (H + 2 * ph - dh * (KH - 1) - 1) // sh + 1
        OW = (W + 2 * pw - dw * (KW - 1) - 1) // sw + 1
        y = torch.empty(N, self.out_channels, OH, OW, device=x.device, dtype=x.dtype)
        w = self.weight
        BLOCK_P, BLOCK_OC = 64, 8
        grid = (triton.cdiv(N * OH * OW, BLOCK_P), triton.cdiv(self.out_channels, BLOCK_OC))
        conv2d_fwd_kernel[grid](x, w, y, N, C, H, W, self.out_channels, OH, OW,
                                *x.stride(), *w.stride(), *y.stride(),
                                sh, sw, ph, pw, dh, dw,
                                KH=KH, KW=KW, BLOCK_P=BLOCK_P, BLOCK_OC=BLOCK_OC)
        return y
