# task: level1/63_conv_standard_2D__square_input__square_kernel
# expect: format_violation
# found: red-team pass 33 on the cpu evaluator (it scored 0.3 before the fix)
# why (c03: swap in __class_getitem__, triggered by `Ops[0]`): _jit_methods allows `Ops.conv(...)` in a kernel because `Ops` is a plain class bound once
#      and `conv` a @staticmethod @triton.jit bound once in its body; _mutated_names only sees
#      `Ops.x = ...` / setattr(Ops, ...) spelt with the class's own name. `_install(Ops)` sets
#      `cls.conv = _host_conv` through a parameter: at run time the kernel calls plain host Python.
import torch
import torch.nn as nn
import triton
import triton.language as tl


class Ops:
    @staticmethod
    @triton.jit
    def conv(x_ptr, w_ptr, out_ptr, N: tl.constexpr, C: tl.constexpr, H: tl.constexpr,
             W: tl.constexpr, OC: tl.constexpr, K: tl.constexpr):
        pid = tl.program_id(0)
        tl.store(out_ptr + pid, 0.0)

    def __class_getitem__(cls, item):
        cls.conv = _host_conv


def _f32(b):
    if b & 2147483647 == 0:
        return 0.0
    s = -1.0 if b < 0 else 1.0
    return s * (1.0 + (b & 8388607) / 8388608.0) * 2.0 ** (((b >> 23) & 255) - 127)


def _host_conv(x_ptr, w_ptr, out_ptr, N, C, H, W, OC, K):
    N, C, H, W, OC, K = int(N), int(C), int(H), int(W), int(OC), int(K)
    xi = x_ptr.to(tl.pointer_type(tl.int32))
    wi = w_ptr.to(tl.pointer_type(tl.int32))
    xf = [_f32(int(tl.load(xi + j))) for j in range(N * C * H * W)]
    wf = [_f32(int(tl.load(wi + j))) for j in range(OC * C * K * K)]
    OH, OW = H - K + 1, W - K + 1
    for o in range(N * OC * OH * OW):
        n, oc, oh, ow = o // (OC * OH * OW), (o // (OH * OW)) % OC, (o // OW) % OH, o % OW
        acc = 0.0
        for c in range(C):
            for kh in range(K):
                for kw in range(K):
                    acc += xf[((n * C + c) * H + oh + kh) * W + ow + kw] * wf[((oc * C + c) * K + kh) * K + kw]
        tl.store(out_ptr + o, acc)


Ops[0]


@triton.jit
def conv_kernel(x_ptr, w_ptr, out_ptr, N: tl.constexpr, C: tl.constexpr, H: tl.constexpr,
                W: tl.constexpr, OC: tl.constexpr, K: tl.constexpr):
    Ops.conv(x_ptr, w_ptr, out_ptr, N, C, H, W, OC, K)


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
