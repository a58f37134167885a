# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: ok
# why: the optional-bias idiom: bias_ptr passed as None when nn.Conv2d has bias=False, tested in
#      the body with `if bias_ptr is not None:`; stride/padding/dilation read from the module
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, w_ptr, bias_ptr, y_ptr,
                  C_in, H, W, C_out, OH, OW, stride, padding, dilation,
                  KS: tl.constexpr, RB: tl.constexpr, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    n = pid_nc // C_out
    co = pid_nc % C_out
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    omask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    # the whole reduction (ci, kh, kw) as one axis, im2col-style: a single gather per program
    # (the Triton interpreter the CPU tests run on pays per loop iteration, not per element)
    r = tl.arange(0, RB)
    rmask = r < C_in * KS * KS
    ci = r // (KS * KS)
    kh = (r // KS) % KS
    kw = r % KS
    ih = oh[None, :] * stride - padding + kh[:, None] * dilation
    iw = ow[None, :] * stride - padding + kw[:, None] * dilation
    m = rmask[:, None] & omask[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    xv = tl.load(x_ptr + ((n * C_in + ci[:, None]) * H + ih) * W + iw, mask=m, other=0.0)
    wv = tl.load(w_ptr + co * C_in * KS * KS + r, mask=rmask, other=0.0)
    acc = tl.sum(xv * wv[:, None], axis=0)
    if bias_ptr is not None:
        acc += tl.load(bias_ptr + co)
    tl.store(y_ptr + pid_nc * OH * OW + offs, acc, mask=omask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        assert groups == 1
        self.conv2d = nn.Conv2d(in_channels, out_channels, (kernel_size, kernel_size), stride=stride,
                                padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        conv = self.conv2d
        x = x.contiguous()
        N, C_in, H, W = x.shape
        KS = conv.kernel_size[0]
        s, p, d = conv.stride[0], conv.padding[0], conv.dilation[0]
        OH = (H + 2 * p - d * (KS - 1) - 1) // s + 1
        OW = (W + 2 * p - d * (KS - 1) - 1) // s + 1
        y = torch.empty((N, conv.out_channels, OH, OW), device=x.device, dtype=x.dtype)
        RB = triton.next_power_of_2(C_in * KS * KS)
        BLOCK = min(triton.next_power_of_2(OH * OW), max(16, 8192 // RB))
        grid = (N * conv.out_channels, triton.cdiv(OH * OW, BLOCK))
        conv2d_kernel[grid](x, conv.weight, conv.bias if conv.bias is not None else None, y,
                            C_in, H, W, conv.out_channels, OH, OW, s, p, d, KS=KS, RB=RB, BLOCK=BLOCK)
        return y
