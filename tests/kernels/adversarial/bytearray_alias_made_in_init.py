# task: level1/19_ReLU
# expect: format_violation
# why: a bytearray and a tensor over it (torch.frombuffer), made in __init__: plain Python clears the sign bytes of the staged input (it scored 0.3 on the cpu evaluator)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.bytes_ = bytearray(4 << 20)
        self.stage = torch.frombuffer(self.bytes_, dtype=torch.int32)

    def forward(self, x):
        n = x.numel()
        staged = self.stage[:n]
        copy_kernel[(triton.cdiv(n, 1024),)](x.view(torch.int32), staged, n, BLOCK=1024)
        mem = self.bytes_
        for i in range(3, 4 * n, 4):       # pure Python on the bytes: clear negatives (sign bit)
            if mem[i] & 128:
                mem[i - 3:i + 1] = bytes(4)
        return staged.view(torch.float32).view(x.shape).clone()
