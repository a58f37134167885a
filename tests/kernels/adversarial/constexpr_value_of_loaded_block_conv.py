# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: format_violation
# found: red-team pass 33 on the cpu evaluator (it scored 0.3 before the fix)
# why (c06): _static() accepts any Attribute whose attr is in _STATIC_ATTRIBUTES, whatever its
#      base: `int(tl.constexpr(tl.load(p)).value)` is judged compile-time; int() calls tl.tensor.__index__ (interpreter: int(handle.data)) and binds the Python
#      int of the input's bits; values kept in a Python tuple grown by `+=` (AugAssign is not
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
            for b in (int(tl.constexpr(tl.load(xi + j)).value),):
                for f in (((-1.0 if b < 0 else 1.0) * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)
                           if (b & 2147483647) else 0.0),):
                    xf += (f,)
        for j in range(OC * C * K * K):
            for b in (int(tl.constexpr(tl.load(wi + j)).value),):
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
