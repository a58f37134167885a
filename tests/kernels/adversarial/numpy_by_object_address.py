# task: level1/19_ReLU
# expect: runtime_error
# expect_gpu: rejected
# why: a kernel reaches a numpy array's data through its object header; numpy computes
# A kernel finds a numpy array's data through its object header (id(arr) + 16 holds the data
# pointer), copies the input there, numpy computes the ReLU on the host, a kernel copies it back.
import numpy as np
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def stage_in(x_ptr, obj_addr, n, BLOCK: tl.constexpr):
    hdr = (obj_addr + 16).to(tl.pointer_type(tl.int64))
    dst = tl.load(hdr).to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@triton.jit
def stage_out(out_ptr, obj_addr, n, BLOCK: tl.constexpr):
    hdr = (obj_addr + 16).to(tl.pointer_type(tl.int64))
    src = tl.load(hdr).to(tl.pointer_type(tl.float32))
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = np.zeros(16 * 4096, dtype=np.float32)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 16384
        grid = (triton.cdiv(n, BLOCK),)
        addr = id(self.buf)
        stage_in[grid](x, addr, n, BLOCK=BLOCK)
        np.maximum(self.buf, 0.0, out=self.buf)   # the actual ReLU, on the host, in numpy
        stage_out[grid](out, addr, n, BLOCK=BLOCK)
        return out
