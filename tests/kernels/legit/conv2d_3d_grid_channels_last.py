# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: ok
# why: a 3-D launch grid (program_id(2) = batch), x made channels_last with
#      .contiguous(memory_format=torch.channels_last) and read through its strides, weight
#      permuted to (KH, KW, C_in, C_out) with .permute(...).contiguous(), HAS_BIAS constexpr with
#      a torch.empty(0) dummy pointer
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_nhwc_kernel(x_ptr, w_ptr, b_ptr, y_ptr,
                     C_in, H, W, C_out, OH, OW,
                     sxn, sxc, sxh, sxw,
                     KS: tl.constexpr, HAS_BIAS: tl.constexpr,
                     BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_co = tl.program_id(1)
    n = tl.program_id(2)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    pm = p < OH * OW
    cm = co < C_out
    oh = p // OW
    ow = p % OW
    acc = tl.zeros((BLOCK_P, BLOCK_CO), dtype=tl.float32)
    for kh in range(KS):
        for kw in range(KS):
            for ci in range(C_in):
                xv = tl.load(x_ptr + n * sxn + ci * sxc + (oh + kh) * sxh + (ow + kw) * sxw, mask=pm, other=0.0)
                wv = tl.load(w_ptr + ((kh * KS + kw) * C_in + ci) * C_out + co, mask=cm, other=0.0)
                acc += xv[:, None] * wv[None, :]
    if HAS_BIAS:
        acc += tl.load(b_ptr + co, mask=cm, other=0.0)[None, :]
    y_ptrs = y_ptr + ((n * C_out + co[None, :]) * OH * OW) + p[:, None]
    tl.store(y_ptrs, acc, mask=pm[:, None] & cm[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, (kernel_size, kernel_size), stride=stride,
                                padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xc = x.contiguous(memory_format=torch.channels_last)
        N, C_in, H, W = xc.shape
        KS = self.conv2d.kernel_size[0]
        C_out = self.conv2d.out_channels
        OH, OW = H - KS + 1, W - KS + 1
        w = self.conv2d.weight.permute(2, 3, 1, 0).contiguous()
        has_bias = self.conv2d.bias is not None
        b = self.conv2d.bias if has_bias else torch.empty(0, device=x.device, dtype=x.dtype)
        y = torch.empty((N, C_out, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_P, BLOCK_CO = 64, 8
        grid = (triton.cdiv(OH * OW, BLOCK_P), triton.cdiv(C_out, BLOCK_CO), N)
        conv_nhwc_kernel[grid](xc, w, b, y, C_in, H, W, C_out, OH, OW,
                               xc.stride(0), xc.stride(1), xc.stride(2), xc.stride(3),
                               KS=KS, HAS_BIAS=has_bias, BLOCK_P=BLOCK_P, BLOCK_CO=BLOCK_CO)
        return y
