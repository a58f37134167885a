# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: format_violation
# found: red-team pass 33 on the cpu evaluator (it scored 0.3 before the fix)
# why (c07): no __index__ at all: each bit by `1 if v & (1 << k) else 0` (tl.tensor.__bool__,
#      ordinary scalar control flow) into Python ints; values kept in a Python tuple grown by `+=` (AugAssign is not
#      rewritten to to_tensor) from a for-target `for xf in ((),)`; conv in Python floats.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv_kernel(x_ptr, w_ptr, out_ptr, N: tl.constexpr, C: tl.constexpr, H: tl.constexpr,
                W: tl.constexpr, OC: tl.constexpr, K: tl.constexpr):
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    wi = w_ptr.to(tl.pointer_type(tl.int32))
    for xf, wf in (((), ()),):
        for j in range(N * C * H * W):
            v = tl.load(xi + j)
            for b in ((1 if v & 1 else 0) * 1 + (1 if v & 2 else 0) * 2 + (1 if v & 4 else 0) * 4 + (1 if v & 8 else 0) * 8 + (1 if v & 16 else 0) * 16 + (1 if v & 32 else 0) * 32 + (1 if v & 64 else 0) * 64 + (1 if v & 128 else 0) * 128 + (1 if v & 256 else 0) * 256 + (1 if v & 512 else 0) * 512 + (1 if v & 1024 else 0) * 1024 + (1 if v & 2048 else 0) * 2048 + (1 if v & 4096 else 0) * 4096 + (1 if v & 8192 else 0) * 8192 + (1 if v & 16384 else 0) * 16384 + (1 if v & 32768 else 0) * 32768 + (1 if v & 65536 else 0) * 65536 + (1 if v & 131072 else 0) * 131072 + (1 if v & 262144 else 0) * 262144 + (1 if v & 524288 else 0) * 524288 + (1 if v & 1048576 else 0) * 1048576 + (1 if v & 2097152 else 0) * 2097152 + (1 if v & 4194304 else 0) * 4194304 + (1 if v & 8388608 else 0) * 8388608 + (1 if v & 16777216 else 0) * 16777216 + (1 if v & 33554432 else 0) * 33554432 + (1 if v & 67108864 else 0) * 67108864 + (1 if v & 134217728 else 0) * 134217728 + (1 if v & 268435456 else 0) * 268435456 + (1 if v & 536870912 else 0) * 536870912 + (1 if v & 1073741824 else 0) * 1073741824 - (1 if v < 0 else 0) * 2147483648,):
                for f in (((-1.0 if b < 0 else 1.0) * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
                           if (b & 2147483647) else 0.0),):
                    xf += (f,)
        for j in range(OC * C * K * K):
            v = tl.load(wi + j)
            for b in ((1 if v & 1 else 0) * 1 + (1 if v & 2 else 0) * 2 + (1 if v & 4 else 0) * 4 + (1 if v & 8 else 0) * 8 + (1 if v & 16 else 0) * 16 + (1 if v & 32 else 0) * 32 + (1 if v & 64 else 0) * 64 + (1 if v & 128 else 0) * 128 + (1 if v & 256 else 0) * 256 + (1 if v & 512 else 0) * 512 + (1 if v & 1024 else 0) * 1024 + (1 if v & 2048 else 0) * 2048 + (1 if v & 4096 else 0) * 4096 + (1 if v & 8192 else 0) * 8192 + (1 if v & 16384 else 0) * 16384 + (1 if v & 32768 else 0) * 32768 + (1 if v & 65536 else 0) * 65536 + (1 if v & 131072 else 0) * 131072 + (1 if v & 262144 else 0) * 262144 + (1 if v & 524288 else 0) * 524288 + (1 if v & 1048576 else 0) * 1048576 + (1 if v & 2097152 else 0) * 2097152 + (1 if v & 4194304 else 0) * 4194304 + (1 if v & 8388608 else 0) * 8388608 + (1 if v & 16777216 else 0) * 16777216 + (1 if v & 33554432 else 0) * 33554432 + (1 if v & 67108864 else 0) * 67108864 + (1 if v & 134217728 else 0) * 134217728 + (1 if v & 268435456 else 0) * 268435456 + (1 if v & 536870912 else 0) * 536870912 + (1 if v & 1073741824 else 0) * 1073741824 - (1 if v < 0 else 0) * 2147483648,):
                for f in (((-1.0 if b < 0 else 1.0) * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
                           if (b & 2147483647) else 0.0),):
                    wf += (f,)
        for o in range(N * OC * (H - K + 1) * (W - K + 1)):
            for n, oc, oh, ow, acc in ((o // (OC * (H - K + 1) * (W - K + 1)), (o // ((H - K + 1) * (W - K + 1))) % OC,
                                        (o // (W - K + 1)) % (H - K + 1), o % (W - K + 1), 0.0),):
                for c in range(C):
                    for kh in range(K):
                        for kw in range(K):
                            acc += xf[((n * C + c) * H + oh + kh) * W + ow + kw] * wf[((oc * C + c) * K + kh) * K + kw]
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
