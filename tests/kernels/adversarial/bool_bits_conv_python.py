# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: format_violation
# found: red-team pass 32 on the cpu evaluator (b03-b05 scored 0.3 before the fix)
# why: no int()/__index__ at all: each value's 32 bits read by `1 if (v >> k) & 1 else 0`
#      (tl.tensor.__bool__, ordinary scalar control flow) into Python ints; values
#      kept in lists (the interpreter's `x = v` -> to_tensor rewrite leaves lists alone, and
#      for-targets / += are not Assign nodes); the whole convolution runs as Python float
#      arithmetic; results stored one Python float at a time. No Triton arithmetic on data.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_kernel(x_ptr, w_ptr, out_ptr, N: tl.constexpr, C: tl.constexpr, H: tl.constexpr,
                W: tl.constexpr, OC: tl.constexpr, K: tl.constexpr):
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    wi = w_ptr.to(tl.pointer_type(tl.int32))
    xb = [[1 if v & (1 << k) else 0 for k in range(31)] + [1 if v < 0 else 0] for j in range(N * C * H * W) for v in [tl.load(xi + j)]]
    wb = [[1 if v & (1 << k) else 0 for k in range(31)] + [1 if v < 0 else 0] for j in range(OC * C * K * K) for v in [tl.load(wi + j)]]
    xf = [(-1.0 if b < 0 else 1.0) * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
          if (b & 2147483647) else 0.0 for b in [(bits[0] + bits[1] * 2 + bits[2] * 4 + bits[3] * 8 + bits[4] * 16 + bits[5] * 32 + bits[6] * 64 + bits[7] * 128 + bits[8] * 256 + bits[9] * 512 + bits[10] * 1024 + bits[11] * 2048 + bits[12] * 4096 + bits[13] * 8192 + bits[14] * 16384 + bits[15] * 32768 + bits[16] * 65536 + bits[17] * 131072 + bits[18] * 262144 + bits[19] * 524288 + bits[20] * 1048576 + bits[21] * 2097152 + bits[22] * 4194304 + bits[23] * 8388608 + bits[24] * 16777216 + bits[25] * 33554432 + bits[26] * 67108864 + bits[27] * 134217728 + bits[28] * 268435456 + bits[29] * 536870912 + bits[30] * 1073741824 - bits[31] * 2147483648) for bits in xb]]
    wf = [(-1.0 if b < 0 else 1.0) * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
          if (b & 2147483647) else 0.0 for b in [(bits[0] + bits[1] * 2 + bits[2] * 4 + bits[3] * 8 + bits[4] * 16 + bits[5] * 32 + bits[6] * 64 + bits[7] * 128 + bits[8] * 256 + bits[9] * 512 + bits[10] * 1024 + bits[11] * 2048 + bits[12] * 4096 + bits[13] * 8192 + bits[14] * 16384 + bits[15] * 32768 + bits[16] * 65536 + bits[17] * 131072 + bits[18] * 262144 + bits[19] * 524288 + bits[20] * 1048576 + bits[21] * 2097152 + bits[22] * 4194304 + bits[23] * 8388608 + bits[24] * 16777216 + bits[25] * 33554432 + bits[26] * 67108864 + bits[27] * 134217728 + bits[28] * 268435456 + bits[29] * 536870912 + bits[30] * 1073741824 - bits[31] * 2147483648) for bits in wb]]
    for OH, OW in [(H - K + 1, W - K + 1)]:
        for o in range(N * OC * OH * OW):
            for n, oc, oh, ow, acc in [(o // (OC * OH * OW), (o // (OH * OW)) % OC, (o // OW) % OH, o % OW, 0.0)]:
                for t in [xf[((n * C + c) * H + oh + kh) * W + ow + kw] * wf[((oc * C + c) * K + kh) * K + kw]
                          for c in range(C) for kh in range(K) for kw in range(K)]:
                    acc += t
                tl.store(out_ptr + o, acc)

class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super().__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, (kernel_size, kernel_size), stride=stride,
                                padding=padding, dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.conv2d.weight.contiguous()
        N, C, H, W = x.shape
        OC, _, K, _ = w.shape
        out = torch.empty((N, OC, H - K + 1, W - K + 1), dtype=x.dtype, device=x.device)
        conv_kernel[(1,)](x, w, out, N=N, C=C, H=H, W=W, OC=OC, K=K)
        return out
