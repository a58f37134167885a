# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: ok
# why: a direct 3x3 convolution whose taps come from module-level `tl.constexpr` tuples, read as
#      `TAP_DH[t]` under tl.static_range; refused at launch until session 16 (false-rejection probe 9)
import torch
import torch.nn as nn
import triton
import triton.language as tl

TAP_DH = tl.constexpr((0, 0, 0, 1, 1, 1, 2, 2, 2))
TAP_DW = tl.constexpr((0, 1, 2, 0, 1, 2, 0, 1, 2))


@triton.jit
def channels_per_group(C, GROUPS: tl.constexpr):
    return C // GROUPS


@triton.jit
def conv3x3_kernel(x_ptr, w_ptr, y_ptr, C_in, H, W, C_out, OH, OW,
                   GROUPS: tl.constexpr, BLOCK_P: tl.constexpr):
    n = tl.program_id(0)
    oc = tl.program_id(1)
    p = tl.program_id(2) * BLOCK_P + tl.arange(0, BLOCK_P)
    pmask = p < OH * OW
    oh = p // OW
    ow = p % OW
    acc = tl.zeros((BLOCK_P,), tl.float32)
    cin_g = C_in // GROUPS
    for ci in range(0, cin_g):
        x_base = x_ptr + (n * C_in + ci) * H * W
        w_base = w_ptr + (oc * cin_g + ci) * 9
        for t in tl.static_range(9):
            xv = tl.load(x_base + (oh + TAP_DH[t]) * W + (ow + TAP_DW[t]), mask=pmask, other=0.0)
            acc += xv * tl.load(w_base + t)
    tl.store(y_ptr + (n * C_out + oc) * OH * OW + p, acc, mask=pmask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 padding: int = 0, dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        assert kernel_size == 3 and stride == 1 and padding == 0 and dilation == 1 and groups == 1
        self.conv2d = nn.Conv2d(in_channels, out_channels, (kernel_size, kernel_size), stride=stride,
                                padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C_in, H, W = x.shape
        C_out = self.conv2d.out_channels
        OH, OW = H - 2, W - 2
        y = torch.empty((N, C_out, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_P = 256
        conv3x3_kernel[(N, C_out, triton.cdiv(OH * OW, BLOCK_P))](
            x, self.conv2d.weight, y, C_in, H, W, C_out, OH, OW, GROUPS=1, BLOCK_P=BLOCK_P)
        return y
