# task: level2/1_Conv2D_ReLU_BiasAdd
# expect: ok
# why: direct convolution with the ReLU and the extra per-channel bias fused into the epilogue
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv2d_relu_bias_kernel(x_ptr, w_ptr, conv_b_ptr, extra_b_ptr, out_ptr, C, H, W, OC, OH, OW,
                            KS: tl.constexpr, BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr):
    n_oc_blocks = tl.cdiv(OC, BLOCK_OC)
    n = tl.program_id(0) // n_oc_blocks
    oc = (tl.program_id(0) % n_oc_blocks) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    oh, ow = p // OW, p % OW  # stride 1, no padding: input pixel (oh + kh, ow + kw) is always in range
    oc_mask, p_mask = oc < OC, p < OH * OW
    acc = tl.zeros((BLOCK_OC, BLOCK_P), dtype=tl.float32)
    for c in range(C):
        for kh in tl.static_range(KS):
            for kw in tl.static_range(KS):
                xv = tl.load(x_ptr + ((n * C + c) * H + oh + kh) * W + ow + kw, mask=p_mask, other=0.0)
                wv = tl.load(w_ptr + ((oc * C + c) * KS + kh) * KS + kw, mask=oc_mask, other=0.0)
                acc += wv[:, None] * xv[None, :]
    acc += tl.load(conv_b_ptr + oc, mask=oc_mask, other=0.0)[:, None]
    acc = tl.maximum(acc, 0.0) + tl.load(extra_b_ptr + oc, mask=oc_mask, other=0.0)[:, None]
    out_offs = (n * OC + oc[:, None]) * (OH * OW) + p[None, :]
    tl.store(out_ptr + out_offs, acc, mask=oc_mask[:, None] & p_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        OC, KS = self.conv.out_channels, self.conv.kernel_size[0]
        OH, OW = H - KS + 1, W - KS + 1
        out = torch.empty((N, OC, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK_OC, BLOCK_P = 16, 128
        grid = (N * triton.cdiv(OC, BLOCK_OC), triton.cdiv(OH * OW, BLOCK_P))
        conv2d_relu_bias_kernel[grid](x, self.conv.weight, self.conv.bias, self.bias, out, C, H, W, OC, OH, OW,
                                      KS=KS, BLOCK_OC=BLOCK_OC, BLOCK_P=BLOCK_P)
        return out
