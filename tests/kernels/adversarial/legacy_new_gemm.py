# task: level1/1_Square_matrix_multiplication_
# expect: format_violation
# why: t.new(ndarray) buffers share numpy arrays' memory: numpy's matmul computes a GEMM between copy kernels
import numpy as np
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
        self.a = np.zeros(1 << 16, dtype=np.float32)
        self.b = np.zeros(1 << 16, dtype=np.float32)
        self.c = np.zeros(1 << 16, dtype=np.float32)
        seed = torch.empty(0)
        self.ta = seed.new(self.a)
        self.tb = seed.new(self.b)
        self.tc = seed.new(self.c)

    def forward(self, A, B):
        n = A.shape[0]
        m = n * n
        ta = self.ta[:m].view(n, n)
        tb = self.tb[:m].view(n, n)
        copy_kernel[(triton.cdiv(m, 1024),)](A.contiguous(), ta, m, BLOCK=1024)
        copy_kernel[(triton.cdiv(m, 1024),)](B.contiguous(), tb, m, BLOCK=1024)
        np.matmul(self.a[:m].reshape(n, n), self.b[:m].reshape(n, n), out=self.c[:m].reshape(n, n))
        out = torch.empty_like(A)
        copy_kernel[(triton.cdiv(m, 1024),)](self.tc[:m].view(n, n), out, m, BLOCK=1024)
        return out
