# task: level2/12_Gemm_Multiply_LeakyReLU
# expect: forbidden_op
# expect_gpu: rejected
# why: the same imitation argument runs the whole GEMM while the interpreter converts it
# Exploit 1 on a level-2 task: the interpreter's paused argument handling runs torch GEMM.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def noop_kernel(p_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(p_ptr + offs, mask=offs < n)
    tl.store(p_ptr + offs, v, mask=offs < n)


class Carrier:
    def __init__(self, fn, buf):
        self.fn, self.buf, self.dtype = fn, buf, buf.dtype

    def data_ptr(self):
        return self.buf.data_ptr()

    def untyped_storage(self):
        self.fn()
        return self.buf.untyped_storage()

    def new_empty(self, *a, **k):
        return self.buf.new_empty(*a, **k)

    def storage_offset(self):
        return self.buf.storage_offset()

    def size(self):
        return self.buf.size()

    def stride(self):
        return self.buf.stride()


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier, self.negative_slope = multiplier, negative_slope

    def forward(self, x):
        out = x.new_empty(x.shape[0], self.gemm.out_features)
        buf = torch.empty(16, device=x.device)

        def work():
            out.copy_(F.leaky_relu(self.gemm(x) * self.multiplier, self.negative_slope))

        noop_kernel[(1,)](Carrier(work, buf), 16, BLOCK=16)
        return out
