# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: ok
# why: direct convolution: each program owns a (BLOCK_OC x BLOCK_P) tile of one image's output and
#      accumulates outer products of a weight column and a shifted input row per (c, kh, kw)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, w_ptr, b_ptr, out_ptr, C, H, W, OC, OH, OW, stride, padding, dilation,
                  KS: tl.constexpr, HAS_BIAS: tl.constexpr, BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr):
    n_oc_blocks = tl.cdiv(OC, BLOCK_OC)
    n = tl.program_id(0) // n_oc_blocks
    oc = (tl.program_id(0) % n_oc_blocks) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)  # flat output pixel index
    oh, ow = p // OW, p % OW
    oc_mask, p_mask = oc < OC, p < OH * OW
    acc = tl.zeros((BLOCK_OC, BLOCK_P), dtype=tl.float32)
    for c in range(C):
        for kh in tl.static_range(KS):
            for kw in tl.static_range(KS):
                ih = oh * stride - padding + kh * dilation
                iw = ow * stride - padding + kw * dilation
                in_mask = p_mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)  # zero padding
                xv = tl.load(x_ptr + ((n * C + c) * H + ih) * W + iw, mask=in_mask, other=0.0)
                wv = tl.load(w_ptr + ((oc * C + c) * KS + kh) * KS + kw, mask=oc_mask, other=0.0)
                acc += wv[:, None] * xv[None, :]
    if HAS_BIAS:
        acc += tl.load(b_ptr + oc, mask=oc_mask, other=0.0)[:, None]
    out_offs = (n * OC + oc[:, None]) * (OH * OW) + p[None, :]
    tl.store(out_ptr + out_offs, acc, mask=oc_mask[:, None] & p_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        assert groups == 1, "this kernel implements ungrouped convolution only"
        self.conv2d = nn.Conv2d(in_channels, out_channels, (kernel_size, kernel_size), stride=stride,
                                padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        conv = self.conv2d
        x = x.contiguous()
        N, C, H, W = x.shape
        OC, KS = conv.out_channels, conv.kernel_size[0]
        s, p, d = conv.stride[0], conv.padding[0], conv.dilation[0]
        OH = (H + 2 * p - d * (KS - 1) - 1) // s + 1
        OW = (W + 2 * p - d * (KS - 1) - 1) // s + 1
        out = torch.empty((N, OC, OH, OW), device=x.device, dtype=x.dtype)
        has_bias = conv.bias is not None
        BLOCK_OC, BLOCK_P = 16, 128
        grid = (N * triton.cdiv(OC, BLOCK_OC), triton.cdiv(OH * OW, BLOCK_P))
        conv2d_kernel[grid](x, conv.weight, conv.bias if has_bias else conv.weight, out, C, H, W, OC, OH, OW,
                            s, p, d, KS=KS, HAS_BIAS=has_bias, BLOCK_OC=BLOCK_OC, BLOCK_P=BLOCK_P)
        return out
