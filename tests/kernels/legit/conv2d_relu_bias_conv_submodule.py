# task: level2/1_Conv2D_ReLU_BiasAdd
# expect: ok
# why: direct convolution reading nn.Conv2d's weight/bias (module attributes kernel_size,
#      in_channels), the extra (C,1,1) bias flattened with .view(-1); one program per
#      (batch*out_channel, spatial block) on a 2D grid; tl.static_range over the
#      kernel's rows, (input channel, column) taps as one vector axis
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_relu_bias_kernel(x_ptr, w_ptr, cb_ptr, b_ptr, y_ptr,
                          C_in, H, W, C_out, OH, OW,
                          KS: tl.constexpr, RB: tl.constexpr, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_s = tl.program_id(1)
    n = pid_nc // C_out
    co = pid_nc % C_out
    offs = pid_s * BLOCK + tl.arange(0, BLOCK)
    mask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    # one row of taps at a time, (input channel, kw) as one axis: the Triton interpreter the CPU
    # tests run on pays per operation, not per element
    r = tl.arange(0, RB)  # RB >= C_in * KS
    rmask = r < C_in * KS
    ci = r // KS
    kw = r % KS
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for kh in tl.static_range(KS):
        xv = tl.load(x_ptr + ((n * C_in + ci[:, None]) * H + oh[None, :] + kh) * W + ow[None, :] + kw[:, None],
                     mask=rmask[:, None] & mask[None, :], other=0.0)
        wv = tl.load(w_ptr + ((co * C_in + ci) * KS + kh) * KS + kw, mask=rmask, other=0.0)
        acc += tl.sum(xv * wv[:, None], axis=0)
    acc += tl.load(cb_ptr + co)
    acc = tl.maximum(acc, 0.0)
    acc += tl.load(b_ptr + co)
    tl.store(y_ptr + pid_nc * OH * OW + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = x.contiguous()
        N, C_in, H, W = x.shape
        KS = self.conv.kernel_size[0]
        C_out = self.conv.out_channels
        OH, OW = H - KS + 1, W - KS + 1
        y = torch.empty((N, C_out, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK = 256
        grid = (N * C_out, triton.cdiv(OH * OW, BLOCK))
        conv_relu_bias_kernel[grid](x, self.conv.weight.contiguous(), self.conv.bias, self.bias.view(-1), y,
                                    C_in, H, W, C_out, OH, OW, KS=KS, RB=triton.next_power_of_2(C_in * KS),
                                    BLOCK=BLOCK)
        return y
